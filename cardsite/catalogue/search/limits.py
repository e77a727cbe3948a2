"""The bounds of a query now live in engines/filters/limits.py (the in-memory filter evaluator
keeps to them too); these names stay importable from here for the modules that read them here."""

from engines.filters.limits import (
    MAX_FUZZY_CHARS,
    MAX_FUZZY_WORDS,
    MAX_NAME_CHARS,
    MAX_QUERY_DEPTH,
    MAX_QUERY_LENGTH,
    MAX_QUERY_TERMS,
    QUERY_NUMBER_MAX,
    QUERY_NUMBER_MIN,
)

__all__ = [
    "MAX_FUZZY_CHARS",
    "MAX_FUZZY_WORDS",
    "MAX_NAME_CHARS",
    "MAX_QUERY_DEPTH",
    "MAX_QUERY_LENGTH",
    "MAX_QUERY_TERMS",
    "QUERY_NUMBER_MAX",
    "QUERY_NUMBER_MIN",
]
