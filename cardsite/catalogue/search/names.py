"""Finding a card by a name someone typed: exactly, or despite typos and missing punctuation.

The same matcher answers /api/v1/cards/named/, gives search its "did you mean" and suggests
names for a decklist's unknown cards; it ranks with similarity.py's scorer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from cardsite.catalogue.models import Card
from cardsite.catalogue.search.backends import name_contains_q
from cardsite.catalogue.search.similarity import NameIndex
from cardsite.catalogue.versioning import catalogue_version
from engines.errors import InputError
from engines.filters.limits import MAX_FUZZY_CHARS, MAX_FUZZY_WORDS
from engines.filters.text import fold

# A fuzzy winner must score at least this (0-100, similarity.score) and beat the runner-up
# by the margin; otherwise the answer is "ambiguous" and the candidates are shown. Typos of
# real names score 88-100; unrelated names rarely pass 80.
MIN_SCORE = 80
MARGIN = 4
CANDIDATES = 5
# "Did you mean" lists names this close to the best one (and at least MIN_SCORE).
SUGGESTION_SPREAD = 10


@dataclass
class NameMatch:
    card: Card | None
    candidates: list[str] = field(default_factory=list)


def _preferred(cards: QuerySet[Card]) -> Card | None:
    """Of several printings of one name, the official one from the newest set."""
    return (
        cards.order_by("-card_set__is_official", "-card_set__release_date", "-card_set__code", "id")
        .select_related("game", "card_set")
        .first()
    )


# (catalogue version, index of folded names) per game ("" for all games), built once per
# version and process: reading 100,000 names costs far more than ranking them. Both databases
# rank in memory, so a typo finds the same card on SQLite and PostgreSQL.
_NAME_INDEX: dict[str, tuple[int, NameIndex]] = {}


def _index(cards: QuerySet[Card], scope: str) -> NameIndex:
    version = catalogue_version()
    cached = _NAME_INDEX.get(scope)
    if cached is None or cached[0] != version:
        names = list(cards.order_by().values_list("search_name", flat=True).distinct())
        cached = _NAME_INDEX[scope] = (version, NameIndex(names))
    return cached[1]


def _scored_names(cards: QuerySet[Card], folded: str, scope: str) -> list[tuple[str, float]]:
    """(folded name, score) for the closest names, best first."""
    return _index(cards, scope).best(folded, CANDIDATES)


def _display_names(cards: QuerySet[Card], folded_names: list[str]) -> list[str]:
    by_folded = dict(cards.filter(search_name__in=folded_names).values_list("search_name", "name"))
    return [by_folded[n] for n in folded_names if n in by_folded]


def _cards(game: str | None) -> QuerySet[Card]:
    return Card.objects.filter(game__slug=game) if game else Card.objects.all()


def match_exact(name: str, *, game: str | None = None) -> NameMatch:
    return NameMatch(_preferred(_cards(game).filter(search_name=fold(name))))


def fuzzy_problem(name: str) -> str:
    """Why `name` is too long to match fuzzily, or "" when it is not."""
    if len(name) > MAX_FUZZY_CHARS:
        return f"a name to match may be at most {MAX_FUZZY_CHARS} characters; got {len(name)}"
    words = len(fold(name).split())
    if words > MAX_FUZZY_WORDS:
        return f"a name to match may have at most {MAX_FUZZY_WORDS} words; got {words}"
    return ""


def match_fuzzy(name: str, *, game: str | None = None) -> NameMatch:
    """The card most like `name`. Raises InputError("fuzzy", ...) for a name beyond the limits."""
    if problem := fuzzy_problem(name):
        raise InputError("fuzzy", problem)
    cards = _cards(game)
    folded = fold(name)
    if not folded:
        return NameMatch(None)
    exact = _preferred(cards.filter(search_name=folded))
    if exact is not None:
        return NameMatch(exact)
    containing = cards
    for word in folded.split():
        containing = containing.filter(name_contains_q(word))
    names = list(containing.values_list("search_name", flat=True).distinct()[: CANDIDATES + 1])
    if len(names) == 1:
        return NameMatch(_preferred(cards.filter(search_name=names[0])))
    scored = _scored_names(cards, folded, game or "")
    if (
        scored
        and scored[0][1] >= MIN_SCORE
        and (len(scored) == 1 or scored[0][1] - scored[1][1] >= MARGIN)
    ):
        return NameMatch(_preferred(cards.filter(search_name=scored[0][0])))
    candidates = names[:CANDIDATES] if len(names) > 1 else _nearest(scored)
    return NameMatch(None, _display_names(cards, candidates))


def near_cards(text: str, *, game: str | None = None) -> tuple[list[Card], bool]:
    """The cards named most like `text`, one printing a name (the official one from the newest
    set), so a page can link each to its card, and whether they are close:
    the suggestions when any name is (at least MIN_SCORE), else the nearest candidates that
    /api/v1/cards/named/?fuzzy= would list as ambiguous (at least half of it). Nothing for
    text beyond the fuzzy limits."""
    folded = fold(text)
    if not folded or fuzzy_problem(text):
        return [], False
    cards = _cards(game)
    scored = _scored_names(cards, folded, game or "")
    wanted = _suggested(scored)
    close = bool(wanted)
    if not close:
        wanted = _nearest(scored)
    printings = cards.filter(search_name__in=wanted).order_by(
        "search_name", "-card_set__is_official", "-card_set__release_date", "-card_set__code", "id"
    )
    first: dict[str, Card] = {}
    for card in printings.select_related("game").only(
        "name", "search_name", "short_id", "slug", "game__name"
    ):
        first.setdefault(card.search_name, card)
    return [first[n] for n in wanted if n in first], close


def _suggested(scored: list[tuple[str, float]]) -> list[str]:
    """The folded names worth offering: good enough, and near the best."""
    if not scored:
        return []
    floor = max(MIN_SCORE, scored[0][1] - SUGGESTION_SPREAD)
    return [n for n, s in scored if s >= floor]


def _nearest(scored: list[tuple[str, float]]) -> list[str]:
    """The folded names worth listing when none is close: at least half of a close one."""
    return [n for n, s in scored if s >= MIN_SCORE / 2]


def suggestions(text: str, *, game: str | None = None) -> list[str]:
    """Names close to `text`, for a search that found nothing; none for text longer than
    any name could be (the search itself may hold more name words than a name does)."""
    folded = fold(text)
    if not folded or fuzzy_problem(text):
        return []
    cards = _cards(game)
    return _display_names(cards, _suggested(_scored_names(cards, folded, game or "")))
