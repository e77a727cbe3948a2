"""The keys of the filter language and the readings of their values that need no catalogue.

The site's compiler (cardsite/catalogue/search/compile.py) and the in-memory evaluator
(evaluate.py) both read keys from here, so a key added to one is known to the other.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.filters.limits import QUERY_NUMBER_MAX, QUERY_NUMBER_MIN
from engines.filters.syntax import QuerySyntaxError, Term

# Each field a term can name, by the keys that name it (a stat is named by its own key and
# aliases, from the game's StatField).
FIELD_KEYS: dict[str, tuple[str, ...]] = {
    "type": ("t", "type"),
    "text": ("o", "text", "oracle"),
    "faction": ("f", "faction", "race", "suit", "affiliation"),
    "set": ("s", "set", "e"),
    "rarity": ("r", "rarity"),
    "keyword": ("is", "kw", "keyword", "has"),
    "game": ("game", "g"),
    "name": ("name", "n"),
}
# Key -> the field it names.
FIELD_OF_KEY = {key: name for name, keys in FIELD_KEYS.items() for key in keys}

# Keys that sort rather than filter: a query of only these still lists every card.
ORDER_KEYS = ("order", "dir")

# `own` and `is:owned` read the viewer's collection (cardsite/catalogue/search/owned.py).
OWN_KEY = "own"
OWNED_WORD = "owned"

# `is:` values that pick sets rather than keywords.
UNOFFICIAL_WORDS = ("sample", "unofficial", "official")

# The operators a term may use; fields other than stats and rarity take only ":" and "="
# (and "!=", as the negation of ":").
COMPARISONS = ("=", ":", "<", "<=", ">", ">=")


def singular(word: str) -> str:
    """A slug's singular, roughly: players write `f:dwarf` for Dwarves, `f:human` for Humans."""
    if word.endswith("ves"):
        return word[:-3] + "f"
    if word.endswith("es") and word[-3:-2] in "sxz":
        return word[:-2]
    return word.removesuffix("s")


def stat_choice(term: Term, choices: Sequence[str]) -> str | None:
    """The choice a term names by a unique beginning (`planet:fed`), or None when it names
    none or several, or compares with an operator choices do not take."""
    found = [c for c in choices if c.startswith(term.value.lower())]
    if term.op not in (":", "=", "!=") or len(found) != 1:
        return None
    return found[0]


def stat_number(term: Term) -> int | None:
    """The whole number a term compares a stat with, or None when its value is not one.

    Raises QuerySyntaxError for a number no stat can hold: dropping `cq>=99999999999` as
    inapplicable would let every card through."""
    try:
        number = int(term.value)
    except ValueError:
        return None
    if not QUERY_NUMBER_MIN <= number <= QUERY_NUMBER_MAX:
        raise QuerySyntaxError(
            f"“{term.key}{term.op}{term.value}”: a number in a query must be between "
            f"{QUERY_NUMBER_MIN:,} and {QUERY_NUMBER_MAX:,}",
            term.position,
        )
    return number
