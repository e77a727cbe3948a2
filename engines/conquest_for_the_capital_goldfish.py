"""Conquest for the Capital's goldfish procedure, declared in
fixtures/conquest-for-the-capital/goldfish.toml and run by engines/procedure. A shim until the
engine itself is read from data: it hands engines/conquest_for_the_capital.py the same names
the hand-written module did."""

from engines.procedure import load_goldfish

_PARTS = load_goldfish("conquest-for-the-capital")

GOLDFISH_POLICY = _PARTS.goldfish_policy
goldfish = _PARTS.goldfish
goldfish_reference = _PARTS.goldfish_reference
odds = _PARTS.odds
# For the engine to take when its declaration moves to data (the same as it states today).
GOLDFISH_CHARTS = _PARTS.goldfish_charts
GOLDFISH_SUMMARY = _PARTS.goldfish_summary

__all__ = [
    "GOLDFISH_CHARTS",
    "GOLDFISH_POLICY",
    "GOLDFISH_SUMMARY",
    "goldfish",
    "goldfish_reference",
    "odds",
]
