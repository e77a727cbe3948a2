"""A playtest session of a deck: its game's table (engines.playtest) replayed from a seed and a
list of actions, as the API answers it and the playtest page draws it. One code path for both."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardsite.cardlists.snapshot import game_snapshot
from decks.models import Deck
from decks.services.intake import intake_deck
from decks.services.resolve import ResolvedDeck, resolve
from engines.base import GameEngine
from engines.errors import InputError
from engines.filters import compile_filter
from engines.filters.text import fold
from engines.playtest import MAX_ACTIONS, ActionError, card_json, playtest
from engines.rules import DeckCard
from engines.table import SecondDeck, Table


def _outside(resolved: ResolvedDeck, table: Table) -> dict[str, DeckCard]:
    """The catalogue's cards the table starts with from outside the deck, by name."""
    snap = resolved.snapshot
    out = {}
    for starting in table.starting:
        for name in starting.names:
            found = snap.by_name.get(fold(name))
            if found is not None:
                out[name] = found.deck_card(1, "")
    return out


def table_json(table: Table) -> dict[str, Any]:
    """The table's declaration, for drawing it: zones in order, steps and counters."""
    return {
        "turn_name": table.turn_name,
        "opening": table.opening_name,
        "deck": table.deck,
        "hand": table.hand,
        "discard": table.discard,
        "zones": [
            {
                "slug": z.slug,
                "name": z.name,
                "kind": z.kind.value,
                "group": z.group,
                "exhaust": z.exhaust,
                "capacity": z.capacity,
                "limit": z.limit,
                "source": z.source,
            }
            for z in table.zones
        ],
        "steps": [{"name": s.name, "source": s.source} for s in table.steps],
        "counters": [
            {"slug": c.slug, "name": c.name, "minimum": c.minimum, "maximum": c.maximum}
            for c in table.counters
        ],
        "discard_name": table.discard_name,
        "exhaust_name": table.exhaust_name,
        "ready_name": table.ready_name,
    }


def playtest_table(engine: GameEngine) -> Table:
    if not isinstance(engine.table, Table):
        raise InputError("game", f"{engine.name} has no playtest table")
    return engine.table


def playtest_session(
    *,
    resolved: ResolvedDeck,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    describe: Callable[[DeckCard], dict[str, Any]],
    second: Sequence[DeckCard] = (),
) -> dict[str, Any]:
    """The deck's table after shuffling by `seed` and replaying `actions`, as JSON-ready data
    with the table's declaration, each visible card as `describe` (a presenter) gives it. An
    action the rules refuse raises engines' ActionError. `second`: the cards the table's
    second-deck zone starts with (second_deck_default's, or the player's second deck's)."""
    table = playtest_table(resolved.snapshot.engine)
    result = playtest(
        table,
        resolved.deck_cards,
        seed=seed,
        actions=actions,
        outside=_outside(resolved, table),
        second=second,
    )
    return {**card_json(result, describe), "table": table_json(table), "seed": seed}


def second_deck_of(resolved: ResolvedDeck, format_slug: str) -> SecondDeck | None:
    """The second deck the deck is played with, if its game's table takes one and the deck is
    not of that deck's format itself (a target deck is played alone)."""
    table = playtest_table(resolved.snapshot.engine)
    slot = table.second_deck
    return slot if slot is not None and slot.format != format_slug else None


# (game, catalogue version, filter) -> the cards: the default changes only with the catalogue.
_DEFAULTS: dict[tuple[str, int, str], tuple[DeckCard, ...]] = {}


def second_deck_default(resolved: ResolvedDeck, slot: SecondDeck) -> tuple[DeckCard, ...]:
    """Every catalogue card the slot's default filter matches, one copy each, in the
    catalogue's order (so a seed deals them alike every time)."""
    snap = resolved.snapshot
    key = (snap.slug, snap.version, slot.default)
    if key not in _DEFAULTS:
        matches = compile_filter(slot.default, stats=snap.engine.stats)
        cards = (c.deck_card(1, c.type_zone or "") for c in snap.cards.values())
        if len(_DEFAULTS) > 64:
            _DEFAULTS.clear()
        _DEFAULTS[key] = tuple(c for c in cards if matches(c))
    return _DEFAULTS[key]


# (deck, its share key, its version, game, catalogue version) -> the deck resolved: a session's
# every move plays the same deck, and a deck's version rises with every change to its cards, so
# the entries' query and the resolving are done once per version, not once per move. The share
# key is random per deck: a number a database hands out again (SQLite may) names another deck.
_PLAYED: dict[tuple[int, str, int, str, int], ResolvedDeck] = {}
MAX_PLAYED_HELD = 256


def played_deck(*, deck: Deck) -> ResolvedDeck:
    """The deck as the playtester plays it: its saved cards resolved against the catalogue,
    the same object for every move until the deck or the catalogue changes."""
    slug = deck.game.slug
    key = (deck.pk, deck.share_key, deck.version, slug, game_snapshot(slug).version)
    held = _PLAYED.get(key)
    if held is None:
        held = resolve(game=slug, intake=intake_deck(deck))
        if len(_PLAYED) >= MAX_PLAYED_HELD:
            _PLAYED.clear()
        _PLAYED[key] = held
    return held


__all__ = [
    "ActionError",
    "decode_actions",
    "encode_actions",
    "played_deck",
    "playtest_session",
    "second_deck_default",
    "second_deck_of",
    "table_json",
]


# The actions in a page's URL, compact: one token each, joined by "_" ("d_n_m12.galaxy.b").
# Card ids are numbers and zone and counter slugs hold only a-z, 0-9 and "-", so "." splits a
# token's parts safely.
_BY_LETTER = {"f": "flip", "x": "exhaust", "r": "ready", "k": "discard"}
_LETTER = {v: k for k, v in _BY_LETTER.items()}
MAX_URL_ACTIONS_CHARS = 8_000


def encode_action(action: Mapping[str, Any]) -> str:
    do = action["do"]
    if do == "draw":
        return "d" + (str(action["n"]) if action.get("n", 1) != 1 else "")
    if do == "next":
        return "n"
    if do in _LETTER:
        return f"{_LETTER[do]}{action['card']}"
    if do == "shuffle":
        return f"s.{action['zone']}"
    if do in ("mulligan", "choose"):
        return ("g" if do == "mulligan" else "c") + ".".join(map(str, action.get("cards", [])))
    if do == "count":
        return f"p.{action['counter']}.{action['by']}"
    parts = [f"m{action['card']}", str(action["to"])]
    if "at" in action:
        parts.append(
            str(action["at"])[0] if action["at"] in ("top", "bottom") else str(action["at"])
        )
    if "face_up" in action:
        parts.append("u" if action["face_up"] else "v")
    return ".".join(parts)


def _number(text: str, field: str) -> int:
    if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 6:
        raise InputError("a", f"{field} {text[:12]!r} is not a number")
    return int(text)


def decode_action(token: str) -> dict[str, Any]:
    """One token of a URL's actions; InputError naming `a` for one that is not an action."""
    head, rest = token[:1], token[1:]
    if head == "d":
        return {"do": "draw", **({"n": _number(rest, "a draw")} if rest else {})}
    if head == "n" and not rest:
        return {"do": "next"}
    if head in _BY_LETTER:
        return {"do": _BY_LETTER[head], "card": _number(rest, "a card")}
    if head == "s" and rest.startswith("."):
        return {"do": "shuffle", "zone": rest[1:]}
    if head in ("g", "c"):
        cards = [_number(p, "a card") for p in rest.split(".") if p]
        action: dict[str, Any] = {"do": "mulligan" if head == "g" else "choose"}
        return {**action, "cards": cards} if cards or head == "c" else action
    if head == "p" and rest.count(".") == 2:
        _, counter, by = rest.split(".")
        return {"do": "count", "counter": counter, "by": _number(by, "a count")}
    if head == "m" and rest.count(".") >= 1:
        card, to, *extra = rest.split(".")
        move: dict[str, Any] = {"do": "move", "card": _number(card, "a card"), "to": to}
        for part in extra[:2]:
            if part in ("u", "v"):
                move["face_up"] = part == "u"
            elif part in ("t", "b"):
                move["at"] = "top" if part == "t" else "bottom"
            else:
                move["at"] = _number(part, "a position")
        return move
    raise InputError("a", f"{token[:20]!r} is not an action")


def decode_actions(text: str) -> list[dict[str, Any]]:
    if len(text) > MAX_URL_ACTIONS_CHARS:
        raise InputError("a", f"at most {MAX_URL_ACTIONS_CHARS:,} characters of actions")
    tokens = [t for t in text.split("_") if t]
    if len(tokens) > MAX_ACTIONS:
        raise InputError("a", f"at most {MAX_ACTIONS} actions, got {len(tokens):,}")
    return [decode_action(t) for t in tokens]


def encode_actions(actions: Sequence[Mapping[str, Any]]) -> str:
    return "_".join(encode_action(a) for a in actions)


@dataclass(frozen=True)
class Move:
    label: str
    link: str
    # What the control does, for the page's script and tests: "move", "next", "draw" ...
    action: str
    # The zone a drop onto should take this move for (moves only).
    to: str = ""


@dataclass(frozen=True)
class Refusal:
    """A move the rules refused, in the engine's words, and where it was tried: the zone a
    card was moved to or a zone's own move was made on, or the card a card's move was made
    on (None for a move of the whole table)."""

    message: str
    zone: str | None = None
    card: int | None = None


@dataclass(frozen=True)
class PlaytestPage:
    """What the playtest page draws: the answer, and each move as a link that replays it."""

    answer: dict[str, Any]
    seed: int
    actions: str
    zones: list[dict[str, Any]]
    moves: list[Move]
    counters: list[dict[str, Any]]
    undo: str | None
    restart: str
    pick: dict[str, Any] | None
    # This session's own link (seed and actions): the page's address after a move.
    link: str
    # What the table waits for before the turn can go on ("Discard 4 to the hand limit").
    waiting: str | None


def playtest_page(
    *,
    resolved: ResolvedDeck,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    describe: Callable[[DeckCard], dict[str, Any]],
    second: Sequence[DeckCard] = (),
    tail: str = "",
) -> tuple[PlaytestPage, Refusal | None]:
    """The page's table after `actions`; an action the rules refuse is dropped with all after
    it, and why returned beside the table before it, placed where it was tried. `tail` ends
    every link (the second deck's parameter)."""
    refusal = None

    def session(actions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return playtest_session(
            resolved=resolved, seed=seed, actions=actions, describe=describe, second=second
        )

    try:
        answer = session(actions)
    except ActionError as exc:
        tried = actions[exc.index] if 0 <= exc.index < len(actions) else {}
        dropped = len(actions) - exc.index
        actions = actions[: max(0, exc.index)]
        answer = session(actions)
        refusal = _refusal(exc, tried, answer, dropped)
    return _page(answer, seed, list(actions), tail), refusal


def _refusal(
    exc: ActionError, tried: Mapping[str, Any], answer: Mapping[str, Any], dropped: int
) -> Refusal:
    # The engine says "move: Location 3 is full ...": the page shows the reason beside the
    # zone tried, where the move's name goes without saying.
    what, _, reason = exc.message.partition(": ")
    message = reason[:1].upper() + reason[1:] if reason and what == tried.get("do") else exc.message
    if dropped > 1:
        # A link whose actions no longer replay (shared, or edited): say which one broke.
        message += f" (action {exc.index + 1} of the link; it and the {dropped - 1} after it"
        message += " are left out)"
    zones = answer["state"]["zones"]
    card = tried.get("card") if isinstance(tried.get("card"), int) else None
    zone = tried.get("to") if tried.get("do") == "move" else tried.get("zone")
    if zone not in zones:
        zone = next((z for z, cards in zones.items() if any(c["id"] == card for c in cards)), None)
    return Refusal(message, zone if isinstance(zone, str) else None, card)


def _link(seed: int, actions: list[Mapping[str, Any]], tail: str = "") -> str:
    return f"?seed={seed}" + (f"&a={encode_actions(actions)}" if actions else "") + tail


def _page(
    answer: dict[str, Any], seed: int, actions: list[Mapping[str, Any]], tail: str
) -> PlaytestPage:
    table = answer["table"]
    names = {z["slug"]: z["name"] for z in table["zones"]}
    kinds = {z["slug"]: z["kind"] for z in table["zones"]}
    menus: dict[int, list[Move]] = {}
    moves: list[Move] = []
    pick = None
    # What the turn waits for: a discard due at once, or what keeps Next back.
    waiting = answer["state"]["pending"]

    # Every move's link is this session's actions and one more: encoded once, not per link.
    done = encode_actions(actions)

    def link(*more: Mapping[str, Any]) -> str:
        return f"?seed={seed}&a=" + "_".join(filter(None, [done, encode_actions(more)])) + tail

    for legal in answer["legal_actions"]:
        if "card" in legal:
            menus[legal["card"]] = _card_menu(legal, table, names, kinds, link)
            continue
        do = legal["do"]
        if do == "next" and "to" in legal:
            moves.append(Move(f"Next: {legal['to']}", link({"do": "next"}), "next"))
        elif do == "next":
            waiting = waiting or legal["blocked"]
        elif do == "draw":
            moves.append(Move("Draw", link({"do": "draw"}), "draw"))
        elif do == "shuffle":
            shuffle = {"do": "shuffle", "zone": legal["zone"]}
            moves.append(Move(f"Shuffle {names[legal['zone']]}", link(shuffle), "shuffle"))
        elif do == "mulligan" and not legal["pick"]:
            moves.append(Move("Mulligan", link({"do": "mulligan"}), "mulligan"))
        elif do == "mulligan":
            pick = {"kind": "g", "zone": table["hand"], "label": "Mulligan the picked cards"}
        elif do == "choose":
            label = f"Keep {legal['keep']} for {names[legal['to']]}"
            pick = {"kind": "c", "zone": legal["zone"], "label": label}
    zones = []
    for zone in table["zones"]:
        cards = [
            {**c, "menu": menus.get(c["id"], [])} for c in answer["state"]["zones"][zone["slug"]]
        ]
        # A pile shows its top card only: the template need not walk the rest of a deck.
        shown = cards[:1] if zone["kind"] == "pile" else cards
        zones.append({**zone, "cards": cards, "shown": shown})
    counters = [
        {
            **c,
            "value": answer["state"]["counters"][c["slug"]],
            "up": link({"do": "count", "counter": c["slug"], "by": 1}),
            "down": link({"do": "count", "counter": c["slug"], "by": -1}),
        }
        for c in table["counters"]
    ]
    return PlaytestPage(
        answer=answer,
        seed=seed,
        actions=encode_actions(actions),
        zones=zones,
        moves=moves,
        counters=counters,
        undo=_link(seed, actions[:-1], tail) if actions else None,
        restart=_link(seed, [], tail),
        pick=pick,
        link=_link(seed, actions, tail),
        waiting=waiting,
    )


def _card_menu(
    legal: Mapping[str, Any],
    table: Mapping[str, Any],
    names: Mapping[str, str],
    kinds: Mapping[str, str],
    link: Callable[[Mapping[str, Any]], str],
) -> list[Move]:
    card = legal["card"]
    out = []
    for to in legal["to"]:
        move = {"do": "move", "card": card, "to": to}
        out.append(Move(f"To {names[to]}", link(move), "move", to))
        if kinds[to] == "pile":
            bottom = {**move, "at": "bottom"}
            out.append(Move(f"To the bottom of {names[to]}", link(bottom), "move"))
    words = {
        "flip": "Turn over",
        "discard": table["discard_name"],
        "exhaust": table["exhaust_name"],
        "ready": table["ready_name"],
    }
    for do in legal["moves"]:
        if do in words:
            out.append(Move(words[do], link({"do": do, "card": card}), do))
    return out
