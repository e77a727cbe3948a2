"""Text folding shared by the search columns, the queries that read them and the in-memory
filter evaluator.

Every side must fold text the same way: a name is stored folded, and a query word is folded
before it is compared, so "deridex" finds "D'Deridex" and "cafe" finds "Café". A slug folds a
name the way the catalogue's vocabulary (types, factions, keywords, rarities) is keyed.
"""

import re
import unicodedata

# Straight, curly and backtick apostrophes all vanish, so every spelling of "D'Deridex" folds alike.
_APOSTROPHES = re.compile("['\u2019\u2018`]")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Lower-case ASCII words separated by single spaces; accents, apostrophes, punctuation go."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    ascii_text = _APOSTROPHES.sub("", ascii_text.lower())
    return _NOT_WORD.sub(" ", ascii_text).strip()


def words(text: str) -> list[str]:
    return fold(text).split()


def slugify(value: str) -> str:
    """A URL-safe slug, folded to ASCII so that "D'Deridex" and "Lovers, The" stay readable."""
    ascii_value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    ascii_value = ascii_value.replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", ascii_value.lower()).strip("-")
