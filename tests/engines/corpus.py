"""A corpus of generated decks for every format of every game, and the problems today's rules
find in each: the yardstick a change to how games are defined is judged by (issue 27).

For each game (`engines.ENGINES`) and each of its formats (`engine.formats`), `format_corpus`
builds DECKS_PER_FORMAT decks from the game's own cards (`fixtures/<slug>/game.json` and
`sample.json`, read directly; no database), each made the way the site makes a deck's cards
(decks/services/snapshot.py): its type's zone, or the zone the engine gives an untyped card,
and factions marked unstated where the engine says an official card's faction is not given.
The decks are, deliberately: legal ones, one card short, one over, of a wrong faction, with
duplicates, with a card of a type no deck holds, each rule of the format broken (as alone as
the cards allow), and random mutations of legal decks (1 to 5 cards added, removed, swapped or
moved, quantities changed, the faction or a setting changed).

Everything is drawn from a `random.Random` seeded per deck by (SEED, game, format, index), so
a deck does not move when another one changes. Legal decks are found by trying cards against
the format's rules, and a rule is broken by trying mutations until that rule reports a problem:
the corpus reads rules only through their public behaviour (`check`, `validate`) and their
dataclass fields, never a game module's names, so it outlives the games' move to data files.

`tests/engines/corpus/<slug>.json` records, per format, a digest of every deck's problems (all
of each Problem's fields, in the order `validate` returns them), the full problems of every
SAMPLE_EVERY-th deck so a mismatch can be read, and digests of the decks themselves, so that
a changed deck is told apart from a changed answer. tests/engines/test_validation_corpus.py
holds today's engines to them.

    python -m tests.engines.corpus --write    # rewrite the golden files

Regenerate ONLY for a deliberate change to a rule, a format or the fixture cards, never to
make a failing port pass; the commit that rewrites the files must say which rule changed and
why the new answers are right.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engines import ENGINES, get_engine
from engines.base import GameEngine
from engines.rules import Deck, DeckCard, Format, NotEmpty, Problem, Rule, Severity, ZoneSize
from engines.rules import infer_faction as _infer_faction

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "corpus"

SEED = 27
DECKS_PER_FORMAT = 2000
SAMPLE_EVERY = 50
# Digests of the decks themselves are kept per block of this many, so a deck that changed
# is found within a block.
DECK_BLOCK = 100
DIGESTS_PER_LINE = 10

# The deliberate kinds every format's corpus holds, and how many of each; "rule-broken
# <Rule>#<i>" (RULE_BROKEN per rule of the format) comes after them and "mutation" fills the rest.
FIXED_KINDS = {
    "legal": 300,
    "short": 150,
    "over": 150,
    "wrong-faction": 150,
    "duplicates": 150,
    "type-not-allowed": 100,
}
RULE_BROKEN = 40
# How many candidate mutations are tried to break a rule with no other rule broken.
BREAK_TRIES = 150
LEGAL_BASES = 24


@dataclass(frozen=True)
class Pool:
    """A game's cards as the site's decks hold them (quantity 1, in the card's own zone)."""

    engine: GameEngine
    cards: tuple[DeckCard, ...]
    factions: tuple[str, ...]

    @property
    def zones(self) -> tuple[str, ...]:
        return tuple(z.slug for z in self.engine.zones)


@dataclass(frozen=True)
class CorpusDeck:
    index: int
    kind: str
    deck: Deck
    # The format's settings as the site passes them (its defaults, some set by an admin).
    settings: Mapping[str, Any]


@cache
def pool(slug: str) -> Pool:
    engine = get_engine(slug)
    cards: list[DeckCard] = []
    factions: list[str] = []
    for name in ("game.json", "sample.json"):
        path = FIXTURES / slug / name
        if not path.exists():
            continue
        document = json.loads(path.read_text())
        official = {s["code"]: bool(s.get("official")) for s in document.get("sets", [])}
        factions += [f["name"] for f in document.get("factions", []) if f["name"] not in factions]
        for item in document.get("cards", []):
            cards.append(_deck_card(engine, item, official.get(item["set"], False)))
    return Pool(engine, tuple(cards), tuple(factions))


def _deck_card(engine: GameEngine, item: Mapping[str, Any], official: bool) -> DeckCard:
    # As decks.services.snapshot builds a deck's card from the catalogue's row.
    type_name = item.get("type") or None
    factions = tuple(item.get("factions", ()))
    keywords = tuple(item.get("keywords", ()))
    return DeckCard(
        key=f"{item['set']}/{item['number']}",
        name=item["name"],
        card_type=type_name or "",
        zone=engine.zone_for(type_name, factions, keywords, item["name"]),
        quantity=1,
        factions=factions,
        keywords=keywords,
        subtypes=tuple(item.get("subtypes", ())),
        stats=dict(item.get("stats", {})),
        text=item.get("text", ""),
        unstated=(
            ("factions",) if engine.factions_not_given(official=official, factions=factions) else ()
        ),
    )


# --- a deck being made --------------------------------------------------------------------


@dataclass
class Draft:
    """A deck under construction: entries by (card key, zone), merged as the site merges them."""

    entries: dict[tuple[str, str], DeckCard]
    faction: str | None
    settings: dict[str, Any]

    def copy(self) -> Draft:
        return Draft(dict(self.entries), self.faction, dict(self.settings))

    def deck(self) -> Deck:
        return Deck(tuple(self.entries.values()), self.faction)

    def count(self, zone: str | None = None) -> int:
        return sum(c.quantity for (_, z), c in self.entries.items() if zone is None or z == zone)

    def add(self, card: DeckCard, quantity: int = 1, zone: str | None = None) -> None:
        where = zone or card.zone
        held = self.entries.get((card.key, where))
        total = quantity + (held.quantity if held else 0)
        self.entries[(card.key, where)] = dataclasses.replace(card, zone=where, quantity=total)

    def remove(self, entry: tuple[str, str], quantity: int = 1) -> None:
        card = self.entries[entry]
        if card.quantity <= quantity:
            del self.entries[entry]
        else:
            self.entries[entry] = dataclasses.replace(card, quantity=card.quantity - quantity)

    def move(self, entry: tuple[str, str], zone: str) -> None:
        card = self.entries.pop(entry)
        self.add(dataclasses.replace(card, quantity=1), card.quantity, zone)


def _values(fmt: Format, settings: Mapping[str, Any]) -> dict[str, Any]:
    return {**fmt.default_settings(), **settings}


def _field(rule: Rule, name: str) -> Any:
    """A rule's parameter by name, read generically: rules differ in the fields they have."""
    names = {f.name for f in dataclasses.fields(rule)}
    return getattr(rule, name) if name in names else None


def _bounds(rule: Rule, values: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """The (lower, upper) count a size rule asks of its zone under these settings."""
    setting = _field(rule, "setting")
    exactly = values.get(setting) if setting else _field(rule, "exactly")
    if exactly is not None:
        return exactly, exactly
    return _field(rule, "minimum"), _field(rule, "maximum")


def _size_rules(fmt: Format) -> list[Rule]:
    return [r for r in fmt.rules if isinstance(r, ZoneSize)]


def _covers(rule: Rule, zone: str) -> bool:
    return _field(rule, "zone") in (None, zone)


def _setting_choices(fmt: Format) -> dict[str, list[Any]]:
    """Values an admin might give each setting: the default, and sizes a deck can be built to
    where a size rule reads the setting."""
    read_by_size = {_field(r, "setting") for r in _size_rules(fmt)}
    choices: dict[str, list[Any]] = {}
    for setting in fmt.settings:
        if setting.key in read_by_size:
            choices[setting.key] = [setting.default, 25, 30, 40]
        elif isinstance(setting.default, int):
            choices[setting.key] = [setting.default, setting.default - 1]
        else:
            choices[setting.key] = [setting.default]
    return choices


def _clean(fmt: Format, draft: Draft) -> bool:
    return not fmt.validate(draft.deck(), draft.settings)


def _breaks(fmt: Format, draft: Draft, *, sizes_low: bool) -> bool:
    """Whether the draft breaks a rule other than a size rule's lower bound (still filling)."""
    values = _values(fmt, draft.settings)
    deck = draft.deck()
    for rule in fmt.rules:
        if isinstance(rule, NotEmpty):
            continue
        if isinstance(rule, ZoneSize) and sizes_low:
            _, upper = _bounds(rule, values)
            if upper is not None and deck.count(_field(rule, "zone")) > upper:
                return True
            continue
        if rule.check(deck, values):
            return True
    return False


def _gaps(fmt: Format, draft: Draft, zone: str, bound: int) -> list[int]:
    """For each size rule over `zone` with a lower (bound 0) or upper (bound 1) count, how far
    the draft is below it."""
    values = _values(fmt, draft.settings)
    return [
        count - draft.count(_field(rule, "zone"))
        for rule in _size_rules(fmt)
        if _covers(rule, zone) and (count := _bounds(rule, values)[bound]) is not None
    ]


def _need(fmt: Format, draft: Draft, zone: str) -> int:
    return max([0, *_gaps(fmt, draft, zone, 0)])


def _room(fmt: Format, draft: Draft, zone: str) -> int:
    # Ten at most where no rule caps the zone: a deck of no maximum still stays a deck.
    return min([10, *_gaps(fmt, draft, zone, 1)])


def _build_legal(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> Draft | None:
    """Cards of the pool added one by one, each kept only if no rule but a size's lower bound
    objects, until every size is met; then perhaps a few more where there is room."""
    candidates = list(cards.cards)
    for _ in range(4):
        rng.shuffle(candidates)
        for card in candidates:
            need = _need(fmt, draft, card.zone)
            if need <= 0:
                continue
            wanted = min(rng.choice((1, 1, 1, 2, 3)), need, _room(fmt, draft, card.zone))
            for quantity in dict.fromkeys((wanted, 1)):
                if quantity <= 0:
                    continue
                trial = draft.copy()
                trial.add(card, quantity)
                if not _breaks(fmt, trial, sizes_low=True):
                    draft = trial
                    break
        if all(_need(fmt, draft, zone) <= 0 for zone in cards.zones) and draft.count():
            break
    if rng.random() < 0.4:
        for card in rng.sample(candidates, min(len(candidates), 40)):
            if _room(fmt, draft, card.zone) <= 0:
                continue
            trial = draft.copy()
            trial.add(card, 1)
            if _clean(fmt, trial):
                draft = trial
            if rng.random() < 0.15:
                break
    return draft if _clean(fmt, draft) else None


@cache
def legal_bases(slug: str, format_slug: str, seed: int = SEED) -> tuple[Draft, ...]:
    """Legal decks of the format, over its factions and settings, that the corpus mutates."""
    cards = pool(slug)
    fmt = _format(slug, format_slug)
    choices = _setting_choices(fmt)
    bases: list[Draft] = []
    for j in range(LEGAL_BASES * 4):
        rng = random.Random(f"{seed}/{slug}/{format_slug}/base/{j}")
        factions = cards.factions or ("",)
        faction: str | None = factions[j % len(factions)] or None
        if not fmt.needs_faction and rng.random() < 0.75:
            faction = None
        settings = {key: rng.choice(values) for key, values in choices.items()}
        built = _build_legal(fmt, cards, Draft({}, faction, settings), rng)
        if built is not None:
            bases.append(built)
        if len(bases) == LEGAL_BASES:
            break
    if not bases:
        raise ValueError(f"{slug} {format_slug}: no legal deck can be built from the fixtures")
    return tuple(bases)


def _format(slug: str, format_slug: str) -> Format:
    found = get_engine(slug).format(format_slug)
    if found is None:
        raise KeyError(f"{slug} has no format {format_slug}")
    return found


# --- the deliberate kinds -----------------------------------------------------------------


def _entry(draft: Draft, rng: random.Random) -> tuple[str, str] | None:
    return rng.choice(sorted(draft.entries)) if draft.entries else None


def _other_faction(cards: Pool, draft: Draft, rng: random.Random) -> str | None:
    own = draft.faction or _infer_faction(draft.entries.values())
    others = [f for f in cards.factions if f != own]
    return rng.choice(others) if others else None


def _sized(fmt: Format, draft: Draft, bound: int) -> list[tuple[Rule, int]]:
    """The format's size rules with a lower (bound 0) or upper (bound 1) count."""
    values = _values(fmt, draft.settings)
    found = []
    for rule in _size_rules(fmt):
        count = _bounds(rule, values)[bound]
        if count is not None:
            found.append((rule, count))
    return found


def _short(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    # One card fewer than a size rule asks for (a deck built past a minimum is cut down to
    # it first), or simply one card fewer where no rule sets a minimum.
    sized = _sized(fmt, draft, 0)
    rule, lower = rng.choice(sized) if sized else (None, draft.count() + 1)
    zone = _field(rule, "zone") if rule else None
    for _ in range(max(1, draft.count(zone) - lower + 1)):
        held = [e for e in sorted(draft.entries) if zone is None or e[1] == zone]
        if not held:
            return
        draft.remove(rng.choice(held))


def _over(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    # One card more than a size rule allows (or than the deck held, where none sets a
    # maximum), each added card one the deck could hold where there is one, so that the
    # count is all that is wrong.
    sized = _sized(fmt, draft, 1)
    rule, upper = rng.choice(sized) if sized else (None, draft.count())
    zone = _field(rule, "zone") if rule else None
    for _ in range(max(1, upper - draft.count(zone) + 1)):
        _one_more(fmt, cards, draft, rng, zone)


def _one_more(fmt: Format, cards: Pool, draft: Draft, rng: random.Random, zone: str | None) -> None:
    held = {key for key, _ in draft.entries}
    fresh = [c for c in cards.cards if c.key not in held and zone in (None, c.zone)]
    rng.shuffle(fresh)
    for card in fresh[:60]:
        trial = draft.copy()
        trial.add(card)
        if all(
            p.code in ("zone_size", "deck_size") for p in fmt.validate(trial.deck(), trial.settings)
        ):
            draft.entries = trial.entries
            return
    entry = _entry(draft, rng)
    if entry is not None:
        draft.add(draft.entries[entry], 1, entry[1])
    elif cards.cards:
        draft.add(rng.choice(cards.cards))


def _wrong_faction(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    other = _other_faction(cards, draft, rng)
    if draft.faction is not None and rng.random() < 0.3:
        draft.faction = other
        return
    strays = [c for c in cards.cards if c.factions and other in c.factions]
    strays = strays or [c for c in cards.cards if c.factions]
    if not strays:
        draft.faction = other
        return
    entry = _entry(draft, rng)
    if entry is not None:
        draft.remove(entry)
    stray = rng.choice(strays)
    draft.add(stray, 1, entry[1] if entry and rng.random() < 0.5 else None)


def _duplicates(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    entry = _entry(draft, rng)
    if entry is None:
        return
    card = draft.entries[entry]
    roll = rng.random()
    twins = [c for c in cards.cards if c.name == card.name and c.key != card.key]
    if twins and roll < 0.4:
        # Another printing of the same name: a separate entry, the same card to a copy limit.
        draft.add(rng.choice(twins), 1, entry[1])
    elif roll < 0.6 and len(cards.zones) > 1:
        draft.add(card, 1, rng.choice([z for z in cards.zones if z != entry[1]]))
    else:
        draft.add(card, rng.randint(1, 3), entry[1])
    if rng.random() < 0.5:
        others = [e for e in draft.entries if e != entry]
        if others:
            draft.remove(rng.choice(sorted(others)))


def _type_not_allowed(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    # Types no deck holds (a type of no zone), then types a rule of the format refuses, then
    # cards of no stated type.
    never = {t.name for t in cards.engine.card_types if t.zone is None}
    refused = {t for rule in fmt.rules for t in (_field(rule, "types") or ())}
    for wanted in (never, refused, {""}):
        found = [c for c in cards.cards if c.card_type in wanted]
        if found:
            draft.add(rng.choice(found), rng.choice((1, 1, 2)))
            return
    if cards.cards:
        draft.add(rng.choice(cards.cards))


def _legal(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    # A base with a few cards swapped for others the format accepts, so that the legal decks
    # are many, not the handful of bases over again.
    for _ in range(rng.randint(0, 6)):
        entry = _entry(draft, rng)
        if entry is None:
            return
        trial = draft.copy()
        trial.remove(entry)
        trial.add(rng.choice(cards.cards), 1, entry[1] if rng.random() < 0.5 else None)
        if _clean(fmt, trial):
            draft.entries = trial.entries


KIND_MAKERS = {
    "legal": _legal,
    "short": _short,
    "over": _over,
    "wrong-faction": _wrong_faction,
    "duplicates": _duplicates,
    "type-not-allowed": _type_not_allowed,
}


# --- breaking one rule --------------------------------------------------------------------


def _break_candidates(
    fmt: Format, rule: Rule, cards: Pool, draft: Draft, rng: random.Random
) -> Iterator[Draft]:
    """Mutations of a legal draft likely to break `rule`, most targeted first, then at random."""
    values = _values(fmt, draft.settings)
    zone = _field(rule, "zone")
    lower, upper = _bounds(rule, values) if isinstance(rule, ZoneSize) else (None, None)
    setting = _field(rule, "setting")
    probes = _probes(rule, cards, draft.faction, tuple(sorted(values.items())))
    for _ in range(BREAK_TRIES):
        trial = draft.copy()
        roll = rng.random()
        in_zone = [e for e in sorted(trial.entries) if zone is None or e[1] == zone]
        if isinstance(rule, NotEmpty):
            trial.entries = {}
        elif probes and roll < 0.5:
            # A card that alone breaks the rule, in place of one of the deck's.
            card, where, quantity = rng.choice(probes)
            if in_zone and rng.random() < 0.5:
                trial.remove(rng.choice(in_zone))
            trial.add(card, quantity, where)
        elif setting and roll < 0.3:
            trial.settings[setting] = max(1, trial.count(zone) + rng.choice((-3, -1, 1, 2)))
        elif lower is not None and roll < 0.6 and in_zone:
            for _ in range(max(1, trial.count(zone) - lower + rng.randint(1, 3))):
                if not trial.entries:
                    break
                held = [e for e in sorted(trial.entries) if zone is None or e[1] == zone]
                if not held:
                    break
                trial.remove(rng.choice(held))
        elif upper is not None and roll < 0.9:
            targets = [c for c in cards.cards if zone is None or c.zone == zone] or list(
                cards.cards
            )
            for _ in range(max(1, upper - trial.count(zone) + rng.randint(1, 3))):
                trial.add(rng.choice(targets), 1, zone)
        else:
            _random_op(fmt, cards, trial, rng, aimed_at=zone)
            if rng.random() < 0.3:
                _random_op(fmt, cards, trial, rng, aimed_at=zone)
        yield trial


_PROBES: dict[tuple[str, Rule, str | None, tuple[tuple[str, Any], ...]], list[Any]] = {}


def _probes(
    rule: Rule,
    cards: Pool,
    faction: str | None,
    values: tuple[tuple[str, Any], ...],
) -> list[tuple[DeckCard, str, int]]:
    """The pool's cards that, alone in a deck (in their own zone or the rule's, once or
    twice), break the rule: how a rule that refuses only a few named cards is broken at all."""
    key = (cards.engine.slug, rule, faction, values)
    if key not in _PROBES:
        zone = _field(rule, "zone")
        found = []
        for card in cards.cards:
            for where in dict.fromkeys((card.zone, zone or card.zone)):
                for quantity in (1, 2):
                    alone = Deck(
                        (dataclasses.replace(card, zone=where, quantity=quantity),), faction
                    )
                    if rule.check(alone, dict(values)):
                        found.append((card, where, quantity))
                        break
        _PROBES[key] = found
    return list(_PROBES[key])


def _break(fmt: Format, index: int, cards: Pool, draft: Draft, rng: random.Random) -> Draft | None:
    """A mutation of the draft that breaks rule `index`, with as few other rules broken as
    the tries find; None if no try breaks it."""
    rule = fmt.rules[index]
    best: tuple[int, Draft] | None = None
    for trial in _break_candidates(fmt, rule, cards, draft, rng):
        values = _values(fmt, trial.settings)
        deck = trial.deck()
        if not rule.check(deck, values):
            continue
        others = sum(1 for r in fmt.rules if r is not rule and r.check(deck, values))
        if best is None or others < best[0]:
            best = (others, trial)
        if others == 0:
            break
    return best[1] if best else None


# --- random mutations ---------------------------------------------------------------------


def _random_op(
    fmt: Format, cards: Pool, draft: Draft, rng: random.Random, aimed_at: str | None = None
) -> None:
    op = rng.choice(("add", "add", "remove", "swap", "quantity", "move", "faction", "setting"))
    entry = _entry(draft, rng)
    if op == "add" or entry is None:
        if cards.cards:
            card = rng.choice(cards.cards)
            zone = aimed_at if aimed_at and rng.random() < 0.5 else None
            draft.add(card, rng.choice((1, 1, 1, 2, 3, 4)), zone)
    elif op == "remove":
        draft.remove(entry, rng.randint(1, draft.entries[entry].quantity))
    elif op == "swap":
        draft.remove(entry, draft.entries[entry].quantity)
        draft.add(rng.choice(cards.cards), rng.choice((1, 1, 2)))
    elif op == "quantity":
        card = draft.entries[entry]
        draft.entries[entry] = dataclasses.replace(card, quantity=rng.randint(1, 5))
    elif op == "move":
        zones = [z for z in cards.zones if z != entry[1]]
        if zones:
            draft.move(entry, rng.choice(zones))
    elif op == "faction":
        draft.faction = rng.choice([None, *cards.factions])
    else:
        choices = _setting_choices(fmt)
        if choices:
            key = rng.choice(sorted(choices))
            draft.settings[key] = rng.choice([*choices[key], draft.count()])


def _mutation(fmt: Format, cards: Pool, draft: Draft, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 5)):
        _random_op(fmt, cards, draft, rng)
    if fmt.needs_faction and rng.random() < 0.1:
        # A deck saved with no faction: the site infers one from its cards.
        draft.faction = _infer_faction(draft.entries.values())


# --- the corpus ---------------------------------------------------------------------------


def schedule(fmt: Format, size: int = DECKS_PER_FORMAT) -> list[str]:
    """The kind of every deck, by index."""
    kinds = [kind for kind, n in FIXED_KINDS.items() for _ in range(n)]
    kinds += [rule_kind(fmt, i) for i in range(len(fmt.rules)) for _ in range(RULE_BROKEN)]
    return kinds + ["mutation"] * max(0, size - len(kinds))


def rule_kind(fmt: Format, index: int) -> str:
    return f"rule-broken {fmt.rules[index].kind}#{index}"


def format_corpus(slug: str, format_slug: str, seed: int = SEED) -> list[CorpusDeck]:
    cards = pool(slug)
    fmt = _format(slug, format_slug)
    bases = legal_bases(slug, format_slug, seed)
    decks = []
    for index, kind in enumerate(schedule(fmt)):
        rng = random.Random(f"{seed}/{slug}/{format_slug}/{index}")
        draft = rng.choice(bases).copy()
        if kind in KIND_MAKERS:
            KIND_MAKERS[kind](fmt, cards, draft, rng)
        elif kind.startswith("rule-broken "):
            rule_index = int(kind.rsplit("#", 1)[1])
            broken = _break(fmt, rule_index, cards, draft, rng)
            if broken is None:
                kind = kind.replace("rule-broken", "rule-unbroken")
            else:
                draft = broken
        elif kind == "mutation":
            _mutation(fmt, cards, draft, rng)
        decks.append(CorpusDeck(index, kind, draft.deck(), draft.settings))
    return decks


# --- canonical forms and the golden files -------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Severity):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plain_problems(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    """Every field of every problem, in the order validation gives them."""
    return [{f.name: _plain(getattr(p, f.name)) for f in dataclasses.fields(p)} for p in problems]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def problems_digest(problems: Sequence[Problem]) -> str:
    return digest(_dump(plain_problems(problems)))


def deck_text(item: CorpusDeck) -> str:
    cards = [
        {f.name: _plain(getattr(c, f.name)) for f in dataclasses.fields(c)} for c in item.deck.cards
    ]
    return _dump({"faction": item.deck.faction, "settings": _plain(item.settings), "cards": cards})


def answers(slug: str, format_slug: str, decks: Sequence[CorpusDeck]) -> list[list[Problem]]:
    fmt = _format(slug, format_slug)
    return [fmt.validate(item.deck, item.settings) for item in decks]


def deck_block_digests(decks: Sequence[CorpusDeck]) -> list[str]:
    return [
        digest("\n".join(deck_text(d) for d in decks[start : start + DECK_BLOCK]))
        for start in range(0, len(decks), DECK_BLOCK)
    ]


def joined(digests: Sequence[str]) -> list[str]:
    return [
        " ".join(digests[i : i + DIGESTS_PER_LINE])
        for i in range(0, len(digests), DIGESTS_PER_LINE)
    ]


def split(lines: Sequence[str]) -> list[str]:
    return [d for line in lines for d in line.split()]


def record_format(slug: str, fmt: Format) -> dict[str, Any]:
    decks = format_corpus(slug, fmt.slug)
    found = answers(slug, fmt.slug, decks)
    codes: Counter[str] = Counter()
    for problems in found:
        codes.update({p.code for p in problems})
    legal = sum(1 for problems in found if not any(p.severity == Severity.ERROR for p in problems))
    return {
        "seed": SEED,
        "decks": len(decks),
        "legal": legal,
        "kinds": dict(Counter(d.kind for d in decks)),
        # In how many decks each problem code appears: the corpus's spread, for a reader.
        "codes": dict(sorted(codes.items())),
        "deck_blocks": deck_block_digests(decks),
        "problems": joined([problems_digest(p) for p in found]),
        "samples": [
            {"index": d.index, "kind": d.kind, "problems": plain_problems(found[d.index])}
            for d in decks[::SAMPLE_EVERY]
        ],
    }


def golden_path(slug: str) -> Path:
    return GOLDEN / f"{slug}.json"


def golden(slug: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(golden_path(slug).read_text())
    return loaded


def _pretty(value: Any, depth: int = 0) -> str:
    """JSON laid out one line per item down to a problem, which takes one line of its own:
    readable in a diff, and half the size of indenting every field."""
    pad, inner = " " * depth, " " * (depth + 1)
    if depth >= 5 or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {_pretty(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    items = [inner + _pretty(v, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + f"\n{pad}]"


def write(slugs: Sequence[str]) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for slug in slugs:
        engine = get_engine(slug)
        document = {
            "game": slug,
            "regenerate": "python -m tests.engines.corpus --write, only for a deliberate rule "
            "change; the commit says why (see tests/engines/corpus.py)",
            "formats": {fmt.slug: record_format(slug, fmt) for fmt in engine.formats},
        }
        golden_path(slug).write_text(_pretty(document) + "\n")
        print(f"wrote {golden_path(slug)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    parser.add_argument("games", nargs="*", help="game slugs (default: every game)")
    args = parser.parse_args(argv)
    slugs = args.games or sorted(ENGINES)
    if not args.write:
        for slug in slugs:
            for fmt in get_engine(slug).formats:
                decks = format_corpus(slug, fmt.slug)
                print(slug, fmt.slug, dict(Counter(d.kind.split("#")[0] for d in decks)))
        return 0
    write(slugs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
