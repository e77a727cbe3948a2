"""Text folding now lives in engines/filters/text.py (the in-memory filter evaluator folds
alike); these names stay importable from here for the modules that still read them here."""

from engines.filters.text import fold, words

__all__ = ["fold", "words"]
