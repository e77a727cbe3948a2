"""Conquest of Fates' goldfish procedure, declared in fixtures/conquest-of-fates/goldfish.toml
and run by engines/procedure. A shim until the engine itself is read from data: it hands
engines/conquest_of_fates.py the same names the hand-written module did, the supply drop and
the hand limit read from the procedure rather than stated twice."""

from engines.procedure import load_goldfish
from engines.procedure.vocabulary import Deal, Discard

_PARTS = load_goldfish("conquest-of-fates")

# GOLDFISH_CHARTS and GOLDFISH_SUMMARY: for the engine to take when its declaration moves to
# data (the same as it states today).
GOLDFISH_POLICY, goldfish, goldfish_reference, odds, GOLDFISH_CHARTS, GOLDFISH_SUMMARY = (
    _PARTS.engine_names()
)


def _number(found: object) -> int:
    if not isinstance(found, int):
        raise TypeError(f"conquest-of-fates goldfish.toml: expected a number, got {found!r}")
    return found


SUPPLY_DROP = _number(next(s.count for s in _PARTS.procedure.setup if isinstance(s, Deal)))
HAND_LIMIT = _number(next(s.down_to for s in _PARTS.procedure.turn if isinstance(s, Discard)))

__all__ = [
    "GOLDFISH_CHARTS",
    "GOLDFISH_POLICY",
    "GOLDFISH_SUMMARY",
    "HAND_LIMIT",
    "SUPPLY_DROP",
    "goldfish",
    "goldfish_reference",
    "odds",
]
