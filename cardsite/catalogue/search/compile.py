"""Turns a parsed query into a Django filter, warnings and an order, as Scryfall-style search does.

Terms that cannot apply (an unknown key, `is:nonsense`, `cq>=lots`) are dropped with a warning
rather than failing the search, offering the nearest valid term where one is close (see
dropped.py); a query whose every term was dropped matches nothing, not the whole catalogue.
Text that cannot be parsed at all is an error (query.py), and so is a query beyond the bounds
in limits.py, or a number no stat can hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.db.models import F, IntegerField, OrderBy, Q, QuerySet
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast

from cardsite.catalogue.models import (
    Card,
    CardSet,
    CardType,
    Faction,
    Game,
    Keyword,
    Rarity,
    Subtype,
)
from cardsite.catalogue.search import backends, owned
from cardsite.catalogue.search.dropped import Dropped, dropped, nearest, written
from engines import ENGINES
from engines.base import StatField, StatKind, slugify
from engines.filters.bounds import check_length, check_size
from engines.filters.keys import (
    FIELD_OF_KEY,
    ORDER_KEYS,
    UNOFFICIAL_WORDS,
    singular,
    stat_choice,
    stat_number,
)
from engines.filters.syntax import (
    And,
    Node,
    Not,
    Or,
    Term,
    parse,
    terms,
)
from engines.filters.text import fold

COMPARISONS = {"=": "exact", ":": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
# The default order, and the tie-breaker after any other: total (id is unique), so pages
# never overlap; an index on (name, id) serves it.
STABLE_ORDER = ("name", "id")


@dataclass
class CompiledQuery:
    q: Q = field(default_factory=Q)
    order_by: tuple[OrderBy | str, ...] = STABLE_ORDER
    warnings: list[Dropped] = field(default_factory=list)
    name_words: list[str] = field(default_factory=list)
    # Every filtering term was dropped: the query matches no card (q says so too).
    nothing_applies: bool = False
    # It asked about the viewer's collection (owned.py): never share its results.
    personal: bool = False

    def apply(self, cards: QuerySet[Card]) -> QuerySet[Card]:
        return cards.filter(self.q).order_by(*self.order_by)


# Up to this many cards, a many-to-many match is fetched as ids first: `id IN (1, 2, ...)`
# combines with other indexed conditions (an OR of two index bitmaps) where a subquery
# forces a scan. Above it, the subquery is cheaper than shipping the ids.
RELATED_IDS_INLINE = 500


def _related(through_field: str, **lookup: object) -> Q:
    """A filter on a many-to-many relation as `id IN (...)`, which never duplicates cards."""
    relation = Card._meta.get_field(through_field)
    assert isinstance(relation, models.ManyToManyField)  # every caller names one
    through = relation.remote_field.through
    assert through is not None  # Django makes one for every many-to-many field
    target = relation.m2m_reverse_field_name()
    filters = {f"{target}__{key}": value for key, value in lookup.items()}
    matches = through._default_manager.filter(**filters).values_list("card_id", flat=True)
    ids = list(matches[: RELATED_IDS_INLINE + 1])
    if len(ids) <= RELATED_IDS_INLINE:
        return Q(id__in=ids)
    return Q(id__in=matches)


# Dropped terms that get the nearest valid term offered; the rest are only named.
MAX_OFFERS = 5


class _Compiler:
    def __init__(self, games: list[Game], text: str, *, everywhere: bool, viewer: Any) -> None:
        self.own = owned.OwnTerms(viewer)
        self.games = games
        self.game_ids = [g.id for g in games]
        self.text = text
        # What a dropped term was not valid in, for its message.
        self.scope = "any game" if everywhere or len(games) != 1 else games[0].name
        self.warnings: list[Dropped] = []
        self.valid: dict[type, dict[str, str]] = {}
        self.offers = 0
        self.name_words: list[str] = []
        self.stats: dict[str, StatField] = {}
        for game in games:
            for spec in ENGINES[game.slug].stats:
                for alias in (spec.key, *spec.aliases):
                    self.stats.setdefault(alias, spec)
        handlers: dict[str, Callable[[Term], Q | None]] = {
            "type": self.type_q,
            "text": self.text_q,
            "faction": self.faction_q,
            "set": self.set_q,
            "rarity": self.rarity_q,
            "keyword": self.keyword_q,
            "game": self.game_q,
            "name": self.name_q,
        }
        self.fields = {key: handlers[name] for key, name in FIELD_OF_KEY.items()}

    def warn(
        self, term: Term, reason: str, value: str | None = None, *, key: str = "", op: str = ""
    ) -> None:
        """Drop `term` because of `reason`, offering it with `value` (`key`, `op`) instead."""
        suggestion = "" if value is None else written(key or term.key or "", op or term.op, value)
        self.warnings.append(dropped(self.text, term, reason, suggestion))

    def nearest(
        self, typed: str, values: Callable[[], Mapping[str, str] | Iterable[str]]
    ) -> str | None:
        """The valid value nearest `typed` (see dropped.nearest), for the first MAX_OFFERS
        dropped terms only: each costs a scoring of every valid value, and a query of fifty
        dropped terms needs its first few corrected before the rest matter."""
        if self.offers >= MAX_OFFERS:
            return None
        self.offers += 1
        return nearest(typed, values())

    def _values(self, model: type) -> dict[str, str]:
        """Each valid value of `model` in these games, as written (its slug) and by name: read
        only when a term is dropped, to find the value nearest it; once per query."""
        if model not in self.valid:
            self.valid[model] = dict(self._in_games(model).values_list("slug", "name"))
        return self.valid[model]

    def node(self, node: Node) -> Q | None:
        if isinstance(node, Term):
            return self.term(node)
        if isinstance(node, Not):
            inner = self.node(node.child)
            return None if inner is None else ~inner
        parts = [q for q in (self.node(child) for child in node.children) if q is not None]
        if not parts:
            return None
        combined = parts[0]
        for part in parts[1:]:
            combined = combined | part if isinstance(node, Or) else combined & part
        return combined

    def term(self, term: Term) -> Q | None:
        if term.key is None:
            return self.bare_q(term)
        if term.key in ORDER_KEYS:
            return None  # handled by _order; it filters nothing
        if owned.is_own_term(term):
            try:
                return self.own.q(term)
            except owned.Inapplicable as exc:
                self.warn(term, str(exc))
                return None
        handler = self.fields.get(term.key)
        if handler is not None:
            if term.op not in (":", "=") and handler not in (self.rarity_q,):
                if term.op == "!=":
                    # These handlers read only the value, so a dropped term's offer keeps "!=".
                    inner = handler(term)
                    return None if inner is None else ~inner
                self.warn(
                    term,
                    f"{term.key} does not compare with {term.op}",
                    term.value,
                    op=":",
                )
                return None
            return handler(term)
        spec = self.stats.get(term.key)
        if spec is not None:
            return self.stat_q(term, spec)
        self.unknown_key(term)
        return None

    def unknown_key(self, term: Term) -> None:
        owners = [
            engine.name
            for engine in ENGINES.values()
            for spec in engine.stats
            if term.key in (spec.key, *spec.aliases)
        ]
        if owners:
            self.warn(term, f"{term.key} is a stat of {' and '.join(owners)}, not of {self.scope}")
            return
        keys = [*self.fields, *self.stats, *ORDER_KEYS, owned.OWN_KEY]
        key = self.nearest(term.key or "", lambda: keys)
        suggestion = None if key is None else term.value
        self.warn(term, f"unknown key “{term.key}”", suggestion, key=key or "")

    # --- fields ---------------------------------------------------------------------------

    def bare_q(self, term: Term) -> Q | None:
        folded = fold(term.value)
        if not folded:
            self.warn(term, f"“{term.value}” has no letters or digits to look for")
            return None
        if term.exact:
            return Q(search_name=folded)
        if term.quoted:
            self.name_words.append(folded)
            return backends.name_contains_q(folded)
        q = Q()
        for word in folded.split():
            self.name_words.append(word)
            q &= backends.name_contains_q(word)
        return q

    def name_q(self, term: Term) -> Q | None:
        return self.bare_q(Term(None, ":", term.value, term.position, quoted=True))

    def type_q(self, term: Term) -> Q | None:
        # Resolve names to ids first: the card query then compares integers, not strings.
        wanted = slugify(term.value)
        type_ids = list(
            self._in_games(CardType, slug__contains=wanted).values_list("id", flat=True)
        )
        subtype_ids = list(
            self._in_games(Subtype, slug__contains=wanted).values_list("id", flat=True)
        )
        if not type_ids and not subtype_ids:
            near = self.nearest(term.value, lambda: self._values(CardType) | self._values(Subtype))
            reason = f"“{term.value}” is not a card type or classification of {self.scope}"
            self.warn(term, reason, near)
            return None
        q = Q(card_type_id__in=type_ids) if type_ids else Q(pk__in=[])
        return q | _related("subtypes", id__in=subtype_ids) if subtype_ids else q

    def text_q(self, term: Term) -> Q | None:
        q = backends.rules_text_q(term.value, phrase=term.quoted)
        if q is None:
            self.warn(term, "no words to look for in the rules text")
        return q

    def _in_games(self, model: type[models.Model], **lookup: object) -> QuerySet[Any]:
        return model._default_manager.filter(game_id__in=self.game_ids, **lookup)

    def faction_q(self, term: Term) -> Q | None:
        wanted = slugify(term.value)
        factions = self._in_games(Faction).filter(
            Q(slug=wanted) | Q(abbreviation__iexact=term.value) | Q(slug__startswith=wanted)
        )
        ids = list(factions.values_list("id", flat=True))
        if not ids:
            # "f:dwarf" for Dwarves, "f:human" for Humans: players name a race in the singular.
            ids = [f.id for f in self._in_games(Faction) if singular(f.slug) == singular(wanted)]
        if not ids:
            near = self.nearest(term.value, lambda: self._values(Faction))
            reason = f"“{term.value}” is not a faction, race, suit or affiliation of {self.scope}"
            self.warn(term, reason, near)
            return None
        return _related("factions", id__in=ids)

    def set_q(self, term: Term) -> Q | None:
        sets = self._in_games(CardSet).filter(
            Q(code__iexact=term.value) | Q(name__icontains=term.value)
        )
        ids = list(sets.values_list("id", flat=True))
        if not ids:
            near = self.nearest(
                term.value,
                lambda: {
                    c.lower(): c for c in self._in_games(CardSet).values_list("code", flat=True)
                },
            )
            self.warn(term, f"“{term.value}” is not a set of {self.scope}", near)
            return None
        return Q(card_set_id__in=ids)

    def rarity_q(self, term: Term) -> Q | None:
        rarities = list(self._in_games(Rarity).filter(slug__startswith=slugify(term.value)))
        if not rarities:
            near = self.nearest(term.value, lambda: self._values(Rarity))
            self.warn(term, f"“{term.value}” is not a rarity of {self.scope}", near)
            return None
        if term.op == "!=":
            return ~Q(rarity_id__in=[r.id for r in rarities])
        compare = {
            ":": int.__eq__,
            "=": int.__eq__,
            "<": int.__lt__,
            "<=": int.__le__,
            ">": int.__gt__,
            ">=": int.__ge__,
        }[term.op]
        # Rarities are ordered per game: compare within each game that has this one, and
        # hand the database the ids, which it matches without joining the rarities table.
        wanted = {r.game_id: r.order for r in rarities}
        ids = [
            rarity.id
            for rarity in self._in_games(Rarity).filter(game_id__in=wanted)
            if compare(rarity.order, wanted[rarity.game_id])
        ]
        return Q(rarity_id__in=ids)

    def keyword_q(self, term: Term) -> Q | None:
        value = term.value.lower()
        if value in UNOFFICIAL_WORDS:
            # Set ids, not a join on sets: the planner then keeps to the card table's indexes.
            official = value == "official"
            ids = list(self._in_games(CardSet, is_official=official).values_list("id", flat=True))
            return Q(card_set_id__in=ids)
        wanted = slugify(term.value)
        keywords = self._in_games(Keyword).filter(
            Q(slug=wanted) | Q(abbreviation__iexact=term.value) | Q(slug__startswith=f"{wanted}-")
        )
        ids = list(keywords.values_list("id", flat=True))
        if not ids:
            near = self.nearest(
                term.value,
                lambda: {
                    **self._values(Keyword),
                    **{v: v for v in (*UNOFFICIAL_WORDS, owned.OWNED_WORD)},
                },
            )
            self.warn(term, f"“{term.value}” is not a keyword or attribute of {self.scope}", near)
            return None
        return _related("keywords", id__in=ids)

    def game_q(self, term: Term) -> Q | None:
        wanted = slugify(term.value)
        ids = [g.id for g in self.games if g.slug == wanted or wanted in g.slug]
        if not ids:
            near = self.nearest(term.value, lambda: {g.slug: g.name for g in self.games})
            self.warn(term, f"“{term.value}” is not a game here", near)
            return None
        return Q(game_id__in=ids)

    def stat_q(self, term: Term, spec: StatField) -> Q | None:
        path = f"stats__{spec.key}"
        if spec.kind is StatKind.CHOICE:
            choice = stat_choice(term, spec.choices)
            if choice is None:
                near = (
                    self.nearest(term.value.lower(), lambda: spec.choices)
                    if term.op in (":", "=", "!=")
                    else None
                )
                self.warn(term, f"{spec.key} is one of {', '.join(spec.choices)}", near)
                return None
            q = Q(**{path: choice})
            return Q(**{"stats__has_key": spec.key}) & ~q if term.op == "!=" else q
        number = stat_number(term)
        if number is None:
            self.warn(term, f"{spec.key} needs a whole number")
            return None
        if term.op == "!=":
            return Q(stats__has_key=spec.key) & ~Q(**{path: number})
        return Q(**{f"{path}__{COMPARISONS[term.op]}": number})

    # --- ordering -------------------------------------------------------------------------

    def order(self, terms: Iterable[Term]) -> tuple[OrderBy | str, ...]:
        key, descending, order_term = None, False, None
        for term in terms:
            if term.key == "order":
                key, order_term = term.value.lower(), term
            elif term.key == "dir":
                if term.value.lower() not in ("asc", "desc"):
                    near = self.nearest(term.value, lambda: ("asc", "desc"))
                    self.warn(term, "dir is asc or desc", near)
                descending = term.value.lower() == "desc"
        if key is None or key == "name":
            first = [F("name").desc() if descending else F("name").asc()]
        elif key == "set":
            first = [
                F(f).desc() if descending else F(f).asc()
                for f in ("card_set__code", "number_sort", "number")
            ]
        elif key in self.stats:
            spec = self.stats[key]
            value = (
                Cast(KeyTextTransform(spec.key, "stats"), IntegerField())
                if spec.kind is StatKind.INTEGER
                else KeyTransform(spec.key, "stats")
            )
            first = [value.desc(nulls_last=True) if descending else value.asc(nulls_last=True)]
        else:
            if order_term is not None:
                near = self.nearest(key, lambda: ["name", "set", *self.stats])
                self.warn(order_term, f"cannot order by “{key}”, so ordered by name", near)
            first = [F("name").asc()]
        return (*first, *STABLE_ORDER)


def _top_level_terms(node: Node | None) -> list[Term]:
    if isinstance(node, Term):
        return [node]
    if isinstance(node, And):
        return [c for c in node.children if isinstance(c, Term)]
    return []


def compile_query(
    text: str, *, games: Iterable[Game], scoped: bool = True, viewer: Any = None
) -> CompiledQuery:
    """Parse and compile `text` for cards of `games` (only those if `scoped`), for `viewer`
    (whose collection `own` terms read; None or anonymous drops them).

    Raises QuerySyntaxError if it cannot parse.
    """
    games = list(games)
    check_length(text)
    tree = parse(text)
    check_size(tree)
    compiler = _Compiler(games, text, everywhere=not scoped, viewer=viewer)
    q = compiler.node(tree) if tree is not None else None
    order = compiler.order(_top_level_terms(tree))
    # Scoping to every game filters nothing, and would steer the planner onto the game index.
    scope = Q(game_id__in=compiler.game_ids) if scoped else Q()
    # Terms were given but none could apply: listing the whole catalogue would answer a
    # question nobody asked. (A query of only order:/dir: still lists every card.)
    nothing_applies = q is None and any(t.key not in ORDER_KEYS for t in terms(tree))
    if nothing_applies:
        q = Q(pk__in=[])
    return CompiledQuery(
        q=scope & q if q is not None else scope,
        order_by=order,
        warnings=compiler.warnings,
        name_words=compiler.name_words,
        nothing_applies=nothing_applies,
        personal=any(owned.is_own_term(t) for t in terms(tree)),
    )
