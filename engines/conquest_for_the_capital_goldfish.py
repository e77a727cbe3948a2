"""Conquest for the Capital's goldfish procedure, declared in
fixtures/conquest-for-the-capital/goldfish.toml and run by engines/procedure. A shim until the
engine itself is read from data: it hands engines/conquest_for_the_capital.py the same names
the hand-written module did."""

from engines.procedure import load_goldfish

_PARTS = load_goldfish("conquest-for-the-capital")

# GOLDFISH_CHARTS and GOLDFISH_SUMMARY: for the engine to take when its declaration moves to
# data (the same as it states today).
GOLDFISH_POLICY, goldfish, goldfish_reference, odds, GOLDFISH_CHARTS, GOLDFISH_SUMMARY = (
    _PARTS.engine_names()
)

__all__ = [
    "GOLDFISH_CHARTS",
    "GOLDFISH_POLICY",
    "GOLDFISH_SUMMARY",
    "goldfish",
    "goldfish_reference",
    "odds",
]
