"""The filter language evaluated in memory, over plain card records.

    compile_filter("planet_type:federation -!Earth", stats=engine.stats)(deck_card)

Search, deck rules and simulations share one language: the site compiles a query into SQL
(cardsite/catalogue/search/compile.py); this module compiles the same tree into a predicate
over any object with a card's facts (`FilterCard`: an `engines.rules.DeckCard`, or a
`CardRecord` carrying the catalogue's set, rarity and game too). Each key reads its value
exactly as the SQL compiler does, and tests/catalogue/test_filter_agreement.py holds the two
to the same cards.

Two modes:
- lenient (search's): a term that cannot apply (an unknown key, a type no card has) is dropped
  with a note, and a query whose every term was dropped matches nothing;
- strict (deck rules, data files): such a term is a FilterError naming it, so a game author
  hears of a typo when the game loads, not when a rule quietly passes every card.

Which values exist (the types, factions, keywords, sets, rarities and games of the cards being
filtered) comes from a `Schema`. Where it does not say (None), a value is matched against each
card's own facts, and strict mode cannot tell a misspelt value from one no card has yet.
`own` and `is:owned` need a viewer's collection and are always refused here.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from engines.filters.bounds import check_length, check_size
from engines.filters.keys import (
    FIELD_OF_KEY,
    ORDER_KEYS,
    OWN_KEY,
    OWNED_WORD,
    UNOFFICIAL_WORDS,
    singular,
    stat_choice,
    stat_number,
)
from engines.filters.records import FilterCard, Named, Schema, StatSpec
from engines.filters.syntax import Node, Not, Or, QuerySyntaxError, Term, parse, terms
from engines.filters.text import fold, slugify

__all__ = [
    "CardFilter",
    "DroppedTerm",
    "FilterError",
    "compile_filter",
    "compile_query",
    "matches",
    "select",
]


class FilterError(QuerySyntaxError):
    """A term that cannot apply, in strict mode, or that needs what no record has (`own`).

    `key` is the term's key ("" for a bare word), so a loader can name it beside the file."""

    def __init__(self, message: str, position: int, key: str = "") -> None:
        super().__init__(message, position)
        self.key = key


@dataclass(frozen=True)
class DroppedTerm:
    """A term a lenient filter left out, and why."""

    term: Term
    reason: str


C = TypeVar("C", bound=FilterCard)
V = TypeVar("V")
Predicate = Callable[[FilterCard], bool | None]  # None: unknown, as SQL's NULL


@dataclass(frozen=True)
class CardFilter:
    """A compiled query: call it with a card record."""

    predicate: Predicate | None  # None: no term filters, so every card matches
    nothing_applies: bool = False  # terms were given, but every one was dropped
    dropped: tuple[DroppedTerm, ...] = ()

    def __call__(self, card: FilterCard) -> bool:
        if self.nothing_applies:
            return False
        # As a WHERE clause keeps a row only when its condition is true, not when unknown.
        return self.predicate is None or self.predicate(card) is True


def compile_filter(text: str, *, stats: Sequence[StatSpec]) -> CardFilter:
    """A strict filter over cards with these stats: for rules and data files, where every key
    and value must mean something. Raises QuerySyntaxError (FilterError for a term that cannot
    apply, naming its key)."""
    return compile_query(text, schema=Schema(stats=tuple(stats)), strict=True)


def compile_query(query: str | Node | None, *, schema: Schema, strict: bool = False) -> CardFilter:
    """The filter for `query` (text, or a tree parse() made) over cards of `schema`.

    Text is held to the same bounds as a search (limits.py)."""
    if isinstance(query, str):
        check_length(query)
        query = parse(query)
    check_size(query)
    compiler = _Compiler(schema, strict=strict)
    predicate = compiler.node(query) if query is not None else None
    # As the search does: terms were given but none could apply, so no card is meant.
    nothing_applies = predicate is None and any(t.key not in ORDER_KEYS for t in terms(query))
    return CardFilter(predicate, nothing_applies, tuple(compiler.dropped))


def matches(query: str | Node | None, card: FilterCard, *, schema: Schema) -> bool:
    return compile_query(query, schema=schema)(card)


def select(query: str | Node | None, cards: Iterable[C], *, schema: Schema) -> list[C]:
    """The cards `query` matches, in their order; compiled once for all of them."""
    card_filter = compile_query(query, schema=schema)
    return [card for card in cards if card_filter(card)]


# --- reading cards ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def _folded(text: str) -> str:
    return fold(text)


@functools.lru_cache(maxsize=8192)
def _slug(name: str) -> str:
    return slugify(name)


def _slugs(names: Iterable[str]) -> set[str]:
    return {_slug(n) for n in names}


def _catalogue_fact(card: FilterCard, attribute: str, term: Term) -> object:
    """A fact only catalogue records carry (a deck's card has no set or rarity)."""
    try:
        return getattr(card, attribute)
    except AttributeError:
        raise FilterError(
            f"“{term.key}” needs each card's {attribute.replace('_', ' ')}, "
            f"which a {type(card).__name__} does not carry",
            term.position,
            term.key or "",
        ) from None


# Terms answer in SQL's three-valued logic: a stat comparison over a card without that stat
# is unknown (None), as the database's comparison with a missing JSON key is NULL, so that
# `-cq:1`, like the search, lists only cards that have a CQ other than 1. Other terms read
# columns the SQL compiler keeps two-valued, and answer True or False.


def _combined(parts: list[Predicate], *, decisive: bool) -> Predicate:
    """The parts joined by `and` (decisive False: one false part decides) or by `or`
    (decisive True); undecided with an unknown part, the whole is unknown."""

    def combined(card: FilterCard) -> bool | None:
        unknown = False
        for part in parts:
            truth = part(card)
            if truth is decisive:
                return decisive
            unknown = unknown or truth is None
        return None if unknown else not decisive

    return combined


def _negated(inner: Predicate) -> Predicate:
    def negated(card: FilterCard) -> bool | None:
        truth = inner(card)
        return None if truth is None else not truth

    return negated


def _differs(key: str, value: object) -> Predicate:
    """`key!=value`: the card has the stat, and it is another (unknown if stated as null)."""

    def differs(card: FilterCard) -> bool | None:
        if key not in card.stats:
            return False
        stat = card.stats[key]
        return None if stat is None else stat != value

    return differs


_ORDERINGS: dict[str, Callable[[int, int], bool]] = {
    ":": operator.eq,
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


# --- the compiler ----------------------------------------------------------------------------


class _Compiler:
    """Mirrors cardsite.catalogue.search.compile._Compiler, term for term: each method
    answers a predicate, or None for a term dropped (lenient) after noting why."""

    def __init__(self, schema: Schema, *, strict: bool) -> None:
        self.schema = schema
        self.strict = strict
        self.dropped: list[DroppedTerm] = []
        self.stats: dict[str, StatSpec] = {}
        for spec in schema.stats:
            for alias in (spec.key, *spec.aliases):
                self.stats.setdefault(alias, spec)
        self.fields: dict[str, Callable[[Term], Predicate | None]] = {
            "type": self.type_p,
            "text": self.text_p,
            "faction": self.faction_p,
            "set": self.set_p,
            "rarity": self.rarity_p,
            "keyword": self.keyword_p,
            "game": self.game_p,
            "name": self.name_p,
        }

    def drop(self, term: Term, reason: str) -> None:
        if self.strict:
            raise FilterError(f"{reason} (in “{_written(term)}”)", term.position, term.key or "")
        self.dropped.append(DroppedTerm(term, reason))

    def refuse(self, term: Term, reason: str) -> NoReturn:
        """Refuse, in either mode, a term nothing here can answer."""
        raise FilterError(f"{reason} (in “{_written(term)}”)", term.position, term.key or "")

    def listed(self, term: Term, values: tuple[V, ...] | None, what: str) -> tuple[V, ...]:
        """The schema's `values` for a term that needs them: a deck's cards carry no set,
        rarity or game, so where the schema does not list them the term is refused."""
        if values is None:
            self.refuse(term, f"the term needs the catalogue's {what}, which deck cards lack")
        return values

    def node(self, node: Node) -> Predicate | None:
        # Recursion is bounded: check_size refused trees deeper than MAX_QUERY_DEPTH.
        if isinstance(node, Term):
            return self.term(node)
        if isinstance(node, Not):
            inner = self.node(node.child)
            return None if inner is None else _negated(inner)
        parts = [p for p in (self.node(child) for child in node.children) if p is not None]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else _combined(parts, decisive=isinstance(node, Or))

    def term(self, term: Term) -> Predicate | None:
        if term.key is None:
            return self.bare_p(term)
        if term.key in ORDER_KEYS:
            if self.strict:
                self.refuse(term, f"“{term.key}” sorts search results; a filter cannot use it")
            return None
        if term.key == OWN_KEY or (term.key == "is" and term.value.lower() == OWNED_WORD):
            self.refuse(term, "cards owned are a viewer's collection, which a filter cannot read")
        field_name = FIELD_OF_KEY.get(term.key)
        if field_name is not None:
            handler = self.fields[field_name]
            if term.op not in (":", "=") and field_name != "rarity":
                if term.op == "!=":
                    inner = handler(term)
                    return None if inner is None else _negated(inner)
                self.drop(term, f"{term.key} does not compare with {term.op}")
                return None
            return handler(term)
        spec = self.stats.get(term.key)
        if spec is not None:
            return self.stat_p(term, spec)
        known = sorted({*FIELD_OF_KEY, *self.stats})
        self.drop(term, f"unknown key “{term.key}”; the keys are {', '.join(known)}")
        return None

    # --- fields ----------------------------------------------------------------------------

    def bare_p(self, term: Term) -> Predicate | None:
        folded = fold(term.value)
        if not folded:
            self.drop(term, f"“{term.value}” has no letters or digits to look for")
            return None
        if term.exact:
            return lambda card: _folded(card.name) == folded
        if term.quoted:
            return lambda card: folded in _folded(card.name)
        wanted = folded.split()
        return lambda card: all(word in _folded(card.name) for word in wanted)

    def name_p(self, term: Term) -> Predicate | None:
        return self.bare_p(Term(None, ":", term.value, term.position, quoted=True))

    def type_p(self, term: Term) -> Predicate | None:
        wanted = slugify(term.value)
        types, subtypes = self.schema.types, self.schema.subtypes
        if types is None or subtypes is None:
            # No vocabulary: each card's own type and classifications are the candidates.
            return lambda card: bool(
                (card.card_type and wanted in _slug(card.card_type))
                or any(wanted in s for s in _slugs(card.subtypes))
            )
        type_slugs = {s for s in _slugs(types) if wanted in s}
        subtype_slugs = {s for s in _slugs(subtypes) if wanted in s}
        if not type_slugs and not subtype_slugs:
            self.drop(term, f"“{term.value}” is not a card type or classification")
            return None
        return lambda card: bool(
            (card.card_type and _slug(card.card_type) in type_slugs)
            or _slugs(card.subtypes) & subtype_slugs
        )

    def text_p(self, term: Term) -> Predicate | None:
        tokens = fold(term.value).split()
        if not tokens:
            self.drop(term, "no words to look for in the rules text")
            return None
        if term.quoted:
            return lambda card: _holds_phrase(_folded(card.text).split(), tokens)
        # Each word starts some word of the text, as a full-text prefix search finds it.
        return lambda card: all(
            any(w.startswith(t) for w in _folded(card.text).split()) for t in tokens
        )

    def faction_p(self, term: Term) -> Predicate | None:
        reason = f"“{term.value}” is not a faction, race, suit or affiliation"
        return self.named_p(term, self.schema.factions, _faction_slugs, _factions, reason)

    def keyword_p(self, term: Term) -> Predicate | None:
        value = term.value.lower()
        if value in UNOFFICIAL_WORDS:
            self.listed(term, self.schema.sets, "sets")
            official = value == "official"
            return lambda card: _catalogue_fact(card, "official", term) == official
        reason = f"“{term.value}” is not a keyword or attribute"
        return self.named_p(term, self.schema.keywords, _keyword_slugs, _keywords, reason)

    def named_p(
        self,
        term: Term,
        entries: tuple[Named, ...] | None,
        named: Callable[[str, Iterable[Named]], set[str]],
        facts: Callable[[FilterCard], tuple[str, ...]],
        reason: str,
    ) -> Predicate | None:
        """Cards with a faction (or keyword) of those `named` finds for the term's value among
        `entries`, or among each card's own when the schema does not list them."""
        if entries is None:

            def own(card: FilterCard) -> bool:
                names = facts(card)
                return bool(_slugs(names) & named(term.value, map(Named, names)))

            return own
        wanted = named(term.value, entries)
        if not wanted:
            self.drop(term, reason)
            return None
        return lambda card: bool(_slugs(facts(card)) & wanted)

    def set_p(self, term: Term) -> Predicate | None:
        sets = self.listed(term, self.schema.sets, "sets")
        value = term.value.lower()
        codes = {s.code for s in sets if s.code.lower() == value or value in s.name.lower()}
        if not codes:
            self.drop(term, f"“{term.value}” is not a set")
            return None
        return lambda card: _catalogue_fact(card, "set_code", term) in codes

    def rarity_p(self, term: Term) -> Predicate | None:
        rarities = self.listed(term, self.schema.rarities, "rarities")
        prefix = slugify(term.value)
        ordered = sorted(rarities, key=lambda r: r.order)
        found = [r for r in ordered if _slug(r.name).startswith(prefix)]
        if not found:
            self.drop(term, f"“{term.value}” is not a rarity")
            return None
        if term.op == "!=":
            excluded = {r.name for r in found}
            return lambda card: _catalogue_fact(card, "rarity", term) not in excluded
        # As the SQL compiler's dict: of several rarities the prefix names, the rarest counts.
        order = found[-1].order
        compare = _ORDERINGS[term.op]
        names = {r.name for r in ordered if compare(r.order, order)}
        return lambda card: _catalogue_fact(card, "rarity", term) in names

    def game_p(self, term: Term) -> Predicate | None:
        games = self.listed(term, self.schema.games, "games")
        wanted = slugify(term.value)
        slugs = {g for g in games if wanted in g}
        if not slugs:
            self.drop(term, f"“{term.value}” is not a game here")
            return None
        return lambda card: _catalogue_fact(card, "game", term) in slugs

    def stat_p(self, term: Term, spec: StatSpec) -> Predicate | None:
        key = spec.key
        if spec.kind == "choice":
            choice = stat_choice(term, spec.choices)
            if choice is None:
                self.drop(term, f"{key} is one of {', '.join(spec.choices)}")
                return None
            if term.op == "!=":
                return _differs(key, choice)

            def chosen(card: FilterCard) -> bool | None:
                stat = card.stats.get(key)
                return None if stat is None else stat == choice

            return chosen
        number = stat_number(term)
        if number is None:
            self.drop(term, f"{key} needs a whole number")
            return None
        if term.op == "!=":
            return _differs(key, number)
        compare = _ORDERINGS[term.op]

        def holds(card: FilterCard) -> bool | None:
            stat = card.stats.get(key)
            if stat is None:
                return None
            # bool is an int subclass, but a stat of `true` is no number a query compares with.
            return isinstance(stat, int) and not isinstance(stat, bool) and compare(stat, number)

        return holds


def _written(term: Term) -> str:
    if term.key is None:
        return f"!{term.value}" if term.exact else term.value
    return f"{term.key}{term.op}{term.value}"


def _holds_phrase(text_words: list[str], tokens: list[str]) -> bool:
    """The tokens as consecutive words, the last only a word's beginning (as `"draw a"*`)."""
    *whole, last = tokens
    span = len(tokens)
    return any(
        text_words[i : i + span - 1] == whole and text_words[i + span - 1].startswith(last)
        for i in range(len(text_words) - span + 1)
    )


def _factions(card: FilterCard) -> tuple[str, ...]:
    return card.factions


def _keywords(card: FilterCard) -> tuple[str, ...]:
    return card.keywords


def _faction_slugs(value: str, entries: Iterable[Named]) -> set[str]:
    """The factions `f:value` names: by slug, abbreviation or slug prefix, else in the
    singular ("dwarf" for Dwarves)."""
    wanted = slugify(value)
    entries = list(entries)
    found = {
        _slug(e.name)
        for e in entries
        if _slug(e.name).startswith(wanted)
        or (e.abbreviation and e.abbreviation.lower() == value.lower())
    }
    if found:
        return found
    return {_slug(e.name) for e in entries if singular(_slug(e.name)) == singular(wanted)}


def _keyword_slugs(value: str, entries: Iterable[Named]) -> set[str]:
    """The keywords `kw:value` names: by slug, abbreviation, or a slug's first words
    ("guardian" for Guardian 2)."""
    wanted = slugify(value)
    return {
        _slug(e.name)
        for e in entries
        if _slug(e.name) == wanted
        or (e.abbreviation and e.abbreviation.lower() == value.lower())
        or _slug(e.name).startswith(f"{wanted}-")
    }
