"""The deck lists' filters as /decks/ and /decks/mine/ read them from their URL, each within a
limit.

Only their shape is checked here (lengths, the sort, the page number); whether a game, format
or faction exists is the listing's to say (selectors.public_deck_listing), from the same rows
it lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from engines.errors import InputError
from engines.filters.text import fold

PER_PAGE = 25
# A page number past the last shows the last page; past this it is refused, before counting.
PAGE_MAX = 10_000
Q_MAX = 100
Q_WORDS = 10
CARD_MAX = 120
# Game, format and faction are slugs or names, the longest of them 60 characters.
CHOICE_MAX = 60
SORTS = ("updated", "newest", "name")
# A deck's standing in its own format, as the legality filter names it.
LEGALITIES = ("legal", "not-legal")


@dataclass(frozen=True)
class DeckFilters:
    game: str = ""
    format: str = ""
    faction: str = ""
    card: str = ""
    q: str = ""
    sort: str = "updated"
    legality: str = ""
    page: int = 1
    # Only decks the viewer's collection (their pool's) holds every copy of; signed in only.
    buildable: bool = False

    @property
    def narrowed(self) -> bool:
        """Whether any filter leaves decks out (the sort and page do not)."""
        return any(v for k, v in self.query().items() if k != "sort")

    def query(self) -> dict[str, str]:
        """The filters as URL parameters, empty ones left out (without the page)."""
        return {
            k: "1" if v is True else str(v)
            for k, v in asdict(self).items()
            if v and k != "page" and v != "updated"
        }


def _text(params: Mapping[str, str], name: str, limit: int) -> str:
    value = params.get(name, "").strip()
    if len(value) > limit:
        raise InputError(name, f"{name} is at most {limit} characters ({len(value)} given).")
    return value


def read_filters(params: Mapping[str, str]) -> DeckFilters:
    """The filters in `params` (a GET query); InputError naming the field and its limit."""
    q = _text(params, "q", Q_MAX)
    if len(fold(q).split()) > Q_WORDS:
        raise InputError("q", f"A name search is at most {Q_WORDS} words.")
    sort = params.get("sort", "") or "updated"
    if sort not in SORTS:
        raise InputError("sort", f"sort is one of {', '.join(SORTS)}.")
    raw_page = params.get("page", "") or "1"
    # Its length first: int() of a long run of digits is itself slow.
    digits = raw_page.isascii() and raw_page.isdigit()  # isdigit() alone takes "²"
    if not (digits and len(raw_page) <= 6 and 1 <= int(raw_page) <= PAGE_MAX):
        raise InputError("page", f"page is a whole number from 1 to {PAGE_MAX:,}.")
    page = int(raw_page)
    legality = params.get("legality", "")
    if legality and legality not in LEGALITIES:
        raise InputError("legality", f"legality is one of {', '.join(LEGALITIES)}.")
    buildable = params.get("buildable", "")
    if buildable not in ("", "0", "1"):
        raise InputError("buildable", "buildable is 1 (only decks your collection can build) or 0.")
    return DeckFilters(
        game=_text(params, "game", CHOICE_MAX),
        format=_text(params, "format", CHOICE_MAX),
        faction=_text(params, "faction", CHOICE_MAX),
        card=_text(params, "card", CARD_MAX),
        q=q,
        sort=sort,
        legality=legality,
        page=page,
        buildable=buildable == "1",
    )
