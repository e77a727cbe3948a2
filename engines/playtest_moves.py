"""The moves a player makes by hand on a playtest table: which are legal now, and doing one.

An action is a small mapping, e.g. {"do": "move", "card": 12, "to": "galaxy"}; see ACTIONS
in engines.playtest. Every check names the action's index, so a shared URL that no longer
replays says exactly which action broke.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.hands import Mulligan
from engines.playtest_session import (
    ACTIONS,
    MAX_AMOUNT,
    ActionError,
    _bounded,
    _Card,
    _Session,
)
from engines.table import ZoneKind


def _int(index: int, action: Mapping[str, Any], key: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(index, f"{_what(action)}: {key!r} must be a whole number")
    return value


def _what(action: Mapping[str, Any]) -> str:
    return str(action.get("do"))[:20]


def _ids(index: int, action: Mapping[str, Any]) -> list[int]:
    raw = action.get("cards", [])
    if not isinstance(raw, list) or len(raw) > MAX_AMOUNT:
        raise ActionError(index, f"{_what(action)}: 'cards' must be a list of card ids")
    if any(isinstance(i, bool) or not isinstance(i, int) for i in raw) or len(set(raw)) < len(raw):
        raise ActionError(index, f"{_what(action)}: 'cards' must be distinct card ids")
    return list(raw)


def _movable(s: _Session, slug: str, position: int) -> bool:
    """A card can be taken by hand unless it is under the top of a pile."""
    return s.table.zone(slug).kind is not ZoneKind.PILE or position == 0


def _card(s: _Session, index: int, action: Mapping[str, Any]) -> tuple[str, int, _Card]:
    card_id = _int(index, action, "card")
    try:
        slug, position = s.find(card_id)
    except KeyError:
        raise ActionError(index, f"{_what(action)}: there is no card {card_id}") from None
    if not _movable(s, slug, position):
        name = s.table.zone(slug).name
        raise ActionError(index, f"{_what(action)}: card {card_id} is not the top of {name}")
    return slug, position, s.zones[slug][position]


def _targets(s: _Session, slug: str) -> list[str]:
    """The zones a card in `slug` may move to: any other, but not a full slot."""
    out = []
    for zone in s.table.zones:
        if zone.slug == slug:
            continue
        if zone.capacity is not None and len(s.zones[zone.slug]) >= zone.capacity:
            continue
        out.append(zone.slug)
    return out


def legal_actions(s: _Session) -> list[dict[str, Any]]:
    table = s.table
    hand = table.hand
    if due := s.must_discard():
        # "You can not take any other actions while discarding this way."
        return [
            {"card": c.id, "zone": hand, "moves": ["discard"], "to": [], "must": due}
            for c in s.zones[hand]
        ]
    out: list[dict[str, Any]] = []
    if blocked := s.blocks_next():
        out.append({"do": "next", "blocked": blocked})
    else:
        following = table.steps[s.following()[0]].name
        out.append({"do": "next", "to": following})
    if s.zones[table.deck] or (table.discard and table.rules.reshuffle_discards):
        out.append({"do": "draw"})
    if s.step < 0 and not s.mulliganed and table.rules.mulligan is not Mulligan.NONE:
        out.append({"do": "mulligan", "pick": table.rules.mulligan is Mulligan.EXCHANGE})
    if choice := s.pending_choice():
        out.append({"do": "choose", "zone": choice.zone, "keep": choice.keep, "to": choice.to})
    for zone in table.zones:
        if zone.kind is ZoneKind.PILE and len(s.zones[zone.slug]) > 1:
            out.append({"do": "shuffle", "zone": zone.slug})
    for counter in table.counters:
        out.append({"do": "count", "counter": counter.slug})
    for zone in table.zones:
        for position, card in enumerate(s.zones[zone.slug]):
            if not _movable(s, zone.slug, position):
                continue
            moves = ["move", "flip"]
            if zone.slug != table.discard:
                moves.append("discard")
            if zone.exhaust:
                moves.append("ready" if card.exhausted else "exhaust")
            out.append(
                {"card": card.id, "zone": zone.slug, "moves": moves, "to": _targets(s, zone.slug)}
            )
    return out


def apply(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    if not isinstance(action, Mapping):
        raise ActionError(index, "an action must be an object with a 'do'")
    kind = action.get("do")
    if kind not in ACTIONS:
        raise ActionError(index, f"{_what(action)!r} is not an action ({', '.join(ACTIONS)})")
    if (due := s.must_discard()) and kind != "discard":
        raise ActionError(index, f"{kind}: first discard {due} to the hand limit")
    handler = _HANDLERS[str(kind)]
    handler(s, index, action)
    s.refill()


def _next(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    if blocked := s.blocks_next():
        raise ActionError(index, f"next: {blocked}")
    s.step, s.turn = s.following()
    s.enter(s.table.steps[s.step])


def _draw(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    n = _int(index, action, "n") if "n" in action else 1
    if not 1 <= n <= MAX_AMOUNT:
        raise ActionError(index, f"draw: 'n' must be from 1 to {MAX_AMOUNT}")
    drawn = s.draw(n)
    s.log.append(f"Drew {drawn} card{'s' * (drawn != 1)}.")


def _position(s: _Session, index: int, action: Mapping[str, Any], slug: str) -> int | None:
    at = action.get("at")
    if at is None:
        return None
    size = len(s.zones[slug])
    if at == "top":
        return 0
    if at == "bottom":
        return size
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= size:
        raise ActionError(index, f"move: 'at' must be top, bottom or 0 to {size}")
    return int(at)


def _move(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    slug, position, card = _card(s, index, action)
    to = action.get("to")
    if not isinstance(to, str) or not s.table.has_zone(to):
        raise ActionError(index, f"move: 'to' must be a zone ({', '.join(s.zones)})")
    face_up = action.get("face_up")
    if face_up is not None and not isinstance(face_up, bool):
        raise ActionError(index, "move: 'face_up' must be true or false")
    zone = s.table.zone(to)
    if to != slug and zone.capacity is not None and len(s.zones[to]) >= zone.capacity:
        held = f"{zone.capacity} card{'s' * (zone.capacity != 1)}"
        raise ActionError(index, f"move: {zone.name} is full: it holds at most {held}")
    if to == slug and "at" not in action:
        raise ActionError(index, f"move: card {card.id} is already in {zone.name}")
    del s.zones[slug][position]
    try:
        at = _position(s, index, action, to)
    except ActionError:
        s.zones[slug].insert(position, card)
        raise
    before = s.name(s.table.zone(slug), card)
    s.put(card, to, at, face_up)
    s.log.append(f"Moved {before} from {s.table.zone(slug).name} to {zone.name}.")


def _flip(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    slug, _, card = _card(s, index, action)
    card.face_up = not card.face_up
    zone = s.table.zone(slug)
    side = "face up" if card.face_up else "face down"
    name = s.name(zone, card) if card.face_up else "a card"
    s.log.append(f"Turned {name} {side} in {zone.name}.")


def _exhaust(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    slug, _, card = _card(s, index, action)
    zone = s.table.zone(slug)
    wanted = action["do"] == "exhaust"
    if not zone.exhaust:
        raise ActionError(index, f"{action['do']}: cards in {zone.name} are not exhausted")
    if card.exhausted == wanted:
        raise ActionError(index, f"{action['do']}: card {card.id} is already {action['do']}ed")
    card.exhausted = wanted
    word = s.table.exhaust_name if wanted else s.table.ready_name
    s.log.append(f"{word}: {s.name(zone, card)}.")


def _shuffle(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    slug = action.get("zone")
    if not isinstance(slug, str) or not s.table.has_zone(slug):
        raise ActionError(index, "shuffle: 'zone' must be a zone")
    zone = s.table.zone(slug)
    if zone.kind is not ZoneKind.PILE:
        raise ActionError(index, f"shuffle: {zone.name} is not a pile")
    s.rng.shuffle(s.zones[slug])
    s.log.append(f"Shuffled {zone.name}.")


def _discard(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    slug, position, card = _card(s, index, action)
    due = s.must_discard()
    if due and slug != s.table.hand:
        raise ActionError(index, f"discard: discard from the hand to its limit first ({due})")
    if slug == s.table.discard:
        raise ActionError(index, f"discard: card {card.id} is already discarded")
    name = s.name(s.table.zone(slug), card)
    del s.zones[slug][position]
    card.exhausted = False
    if s.table.discard is None:
        s.put(card, s.table.deck, len(s.zones[s.table.deck]), face_up=False)
        where = f"the bottom of {s.table.zone(s.table.deck).name}"
    else:
        s.put(card, s.table.discard)
        where = s.table.zone(s.table.discard).name
    s.log.append(f"{s.table.discard_name}: {name} to {where}.")


def _mulligan(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    rules, hand = s.table.rules, s.table.hand
    if rules.mulligan is Mulligan.NONE:
        raise ActionError(index, "mulligan: this game has no mulligan")
    if s.step >= 0 or s.mulliganed:
        raise ActionError(index, "mulligan: only once, in the opening")
    s.mulliganed = True
    deck = s.zones[s.table.deck]
    if rules.mulligan is Mulligan.REDRAW:
        if "cards" in action:
            raise ActionError(index, "mulligan: this game's mulligan takes the whole hand")
        deck.extend(s.zones[hand])
        s.zones[hand].clear()
        for card in deck:
            card.face_up = False
        s.rng.shuffle(deck)
        s.draw(rules.opening)
        s.log.append(f"Mulligan: shuffled the hand back and drew {rules.opening}.")
        return
    ids = _ids(index, action)
    chosen = [c for c in s.zones[hand] if c.id in ids]
    if len(chosen) != len(ids):
        raise ActionError(index, "mulligan: the cards must be in the hand")
    for card in chosen:
        s.zones[hand].remove(card)
        s.put(card, s.table.deck, len(deck))
    s.draw(len(chosen))
    s.log.append(f"Mulligan: put {len(chosen)} on the bottom and drew {len(chosen)}.")


def _choose(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    choice = s.pending_choice()
    if choice is None:
        raise ActionError(index, "choose: there is nothing to choose")
    ids = _ids(index, action)
    pool = s.zones[choice.zone]
    chosen = [c for c in pool if c.id in ids]
    if len(chosen) != len(ids) or len(ids) != min(choice.keep, len(pool)):
        where = s.table.zone(choice.zone).name
        raise ActionError(index, f"choose: pick {choice.keep} card(s) of {where}")
    for card in list(pool):
        pool.remove(card)
        if card in chosen:
            s.put(card, choice.to, face_up=True)
        else:
            # The rest go under a pile (the upgrade deck's bottom), or beside an area's cards.
            s.put(card, choice.rest_to, len(s.zones[choice.rest_to]))
    names = ", ".join(c.card.name for c in chosen)
    s.log.append(f"Chose {names} for {s.table.zone(choice.to).name}.")


def _count(s: _Session, index: int, action: Mapping[str, Any]) -> None:
    slug = action.get("counter")
    counter = next((c for c in s.table.counters if c.slug == slug), None)
    if counter is None:
        known = ", ".join(c.slug for c in s.table.counters) or "none"
        raise ActionError(index, f"count: 'counter' must be one of: {known}")
    by = _int(index, action, "by")
    if not -MAX_AMOUNT <= by <= MAX_AMOUNT or by == 0:
        raise ActionError(index, f"count: 'by' must be from -{MAX_AMOUNT} to {MAX_AMOUNT}, not 0")
    s.counters[counter.slug] = _bounded(counter, s.counters[counter.slug] + by)
    s.log.append(f"{counter.name}: {s.counters[counter.slug]}.")


_HANDLERS = {
    "next": _next,
    "draw": _draw,
    "move": _move,
    "flip": _flip,
    "exhaust": _exhaust,
    "ready": _exhaust,
    "shuffle": _shuffle,
    "discard": _discard,
    "mulligan": _mulligan,
    "choose": _choose,
    "count": _count,
}
