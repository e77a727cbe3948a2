"""The keys of the filter language and the readings of their values that need no catalogue.

The site's compiler (cardsite/catalogue/search/compile.py) and the in-memory evaluator
(evaluate.py) both read keys from here, so a key added to one is known to the other.
"""

from __future__ import annotations

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
