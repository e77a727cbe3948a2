"""The hostile requests of the load test's hostile mix (load_mix.py): the worst request of
each kind that the site's documented limits allow."""

from __future__ import annotations

import base64
import json
import urllib.parse
import zlib
from typing import Any

from load_mix import JSON, UNIQUE, VALIDATE, Kind, Request


def _deck_code(game: str, fmt: str, entries: list[list[Any]], inflated: int) -> str:
    """A deck code (cardsite/cardlists/decklist.py's format) whose JSON is padded with spaces
    to inflate to `inflated` bytes: decode_code reads only the keys it knows."""
    from cardsite.cardlists.decklist import CODE_PREFIX

    body = json.dumps({"g": game, "f": fmt, "c": None, "e": entries}).encode()
    body = body[:-1] + b', "pad": "' + b" " * (inflated - len(body) - 11) + b'"}'
    payload = base64.urlsafe_b64encode(zlib.compress(body, 9)).decode().rstrip("=")
    return f"{CODE_PREFIX}.{payload}.{zlib.crc32(payload.encode()):08x}"


def hostile_kinds(*, owner: Any, decklist: dict[str, Any], goldfish: bool) -> list[Kind]:
    """The worst request of each kind the documented limits allow, built from the loaded games
    (Django is set up). Each answers 2xx, or a 4xx when a rate limit or a limit merged later
    refuses it."""
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    from cardsite.api.parsers import MAX_JSON_DEPTH
    from cardsite.cardlists.decklist import MAX_CODE_BYTES, MAX_CODE_CHARS
    from cardsite.catalogue.models import Card
    from decks.api.serializers import DeckInputSerializer
    from decks.services.intake import MAX_LINES
    from decks.services.resolve import MAX_SUGGESTED
    from engines import get_engine
    from engines.filters.limits import MAX_QUERY_LENGTH, MAX_QUERY_TERMS
    from engines.odds import MAX_DECK_SIZE

    game, fmt = decklist["game"], decklist["format"]
    total = get_engine(game).max_deck_cards  # at most this many cards in a deck (100 here)
    cards = list(Card.objects.filter(game__slug=game).select_related("card_set").order_by("id"))
    text_limit = DeckInputSerializer().fields["text"].max_length  # 100,000 characters

    # 1,000 lines: as many cards as a deck may hold, each named with its printing, then lines of
    # quantity 0, each a problem in the answer, padded to the text field's length.
    entries = [
        f"1 {c.name} ({c.card_set.code}) {c.number}"
        for c in (cards[i % len(cards)] for i in range(total))
    ]
    room = (text_limit - sum(len(e) + 1 for e in entries)) // (MAX_LINES - total) - 1
    filler = f"0 {cards[0].name}".ljust(room, "x")
    at_limits = "\n".join(entries + [filler] * (MAX_LINES - total))

    # As many distinct unknown names as cards a deck may hold, near real names so the fuzzy
    # search finds candidates; the first MAX_SUGGESTED get suggestions. Padded to the length.
    width = text_limit // total - 4
    unknown = "\n".join(
        f"1 {(cards[i % len(cards)].name[:-2] + f'zq{i} ').ljust(width, 'q')}" for i in range(total)
    )

    # A deck code of a whole deck, inflating to just under its limit.
    code = _deck_code(
        game,
        fmt,
        [[cards[i % len(cards)].short_id, 1, "main"] for i in range(total)],
        MAX_CODE_BYTES - 1_000,
    )
    assert len(code) <= MAX_CODE_CHARS, len(code)
    token, _ = Token.objects.get_or_create(user=owner)

    # Every term a faction lookup that finds nothing (the costliest term measured: a query of
    # each per term), up to the term and length limits, and one term no cache has seen.
    terms, query = 0, f"-zq{UNIQUE}"
    room = MAX_QUERY_LENGTH - 24 + len(UNIQUE)  # room for the number: 6 digits, t, 2, n, 6 more
    while terms < MAX_QUERY_TERMS - 1 and len(query) + len(f" -f:zz{terms}") <= room:
        query += f" -f:zz{terms}"
        terms += 1
    q = urllib.parse.quote(query)

    # The ordinary decklist with 100 KB of arrays nested to the depth limit beside it (the
    # body is level 1): DRF ignores a key it does not know, after parsing and checking it all.
    chain: Any = [1]
    for _ in range(MAX_JSON_DEPTH - 3):  # the body, then "padding", then a chain
        chain = [chain]
    one = len(json.dumps(chain)) + 2
    deep = {**decklist, "padding": [chain] * (text_limit // one)}

    post = json.dumps
    kinds = [
        Kind(
            "deck at the limits",
            f"POST {VALIDATE}: {MAX_LINES:,}-line decklist, {len(at_limits):,} characters, "
            f"{total} cards by printing, {MAX_LINES - total} lines of quantity 0",
            [Request("POST", VALIDATE, post({"game": game, "format": fmt, "text": at_limits}))],
        ),
        Kind(
            "unknown names",
            f"POST {VALIDATE}: {total} distinct unknown names near real ones, "
            f"{len(unknown):,} characters ({MAX_SUGGESTED} get suggestions)",
            [Request("POST", VALIDATE, post({"game": game, "format": fmt, "text": unknown}))],
        ),
        Kind(
            "deck code",
            f"POST /api/v1/decks/ (token): a {len(code):,}-character code of {total} cards "
            f"inflating to {MAX_CODE_BYTES - 1_000:,} bytes",
            [
                Request(
                    "POST",
                    "/api/v1/decks/",
                    post({"game": game, "format": fmt, "name": "Load test: code", "code": code}),
                    {"Authorization": f"Token {token.key}"},
                )
            ],
        ),
        Kind(
            "odds",
            f"POST /api/v1/odds/: deck_size {MAX_DECK_SIZE:,}, copies {MAX_DECK_SIZE:,}, "
            f"draws {MAX_DECK_SIZE:,}, at_least 1, mulligan",
            [
                Request(
                    "POST",
                    "/api/v1/odds/",
                    post(
                        {
                            "deck_size": MAX_DECK_SIZE,
                            "copies": MAX_DECK_SIZE,
                            "draws": MAX_DECK_SIZE,
                            "at_least": 1,
                            "mulligan": True,
                        }
                    ),
                )
            ],
        ),
        Kind(
            "long search API",
            f"GET /api/v1/cards/?q=… (about {len(query) - len(UNIQUE) + 20} characters: "
            f"{terms} terms `-f:zzN` and one new each time)",
            [Request("GET", f"/api/v1/cards/?q={q}")],
        ),
        Kind(
            "long search page",
            "GET /search/?q=… (the same query)",
            [Request("GET", f"/search/?q={q}")],
        ),
        Kind(
            "deep JSON",
            f"POST {VALIDATE}: the 50-card decklist beside {len(post(deep)) // 1000} KB of "
            f"arrays nested {MAX_JSON_DEPTH} deep",
            [Request("POST", VALIDATE, post(deep))],
        ),
    ]
    runs = settings.JOB_GOLDFISH_RUNS - 1  # the most answered inline once a broker is set
    kinds.append(
        Kind(
            "goldfish",
            f"POST /api/v1/goldfish/: the 50-card list, {runs:,} runs (the most answered "
            "inline beside a broker), policy turns=1",
            [
                Request(
                    "POST",
                    "/api/v1/goldfish/",
                    post({**decklist, "runs": runs, "seed": 1, "policy": {"turns": 1}}),
                )
            ],
            in_mix=goldfish,
        )
    )
    for kind in kinds:
        kind.hostile = True
        for r in kind.requests:
            r.body = r.body.encode() if isinstance(r.body, str) else r.body
            r.headers = {**(JSON if r.method == "POST" else {}), **r.headers}
    return kinds
