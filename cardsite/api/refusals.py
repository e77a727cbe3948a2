"""Why a well-formed request can still be a 400: facts the schema cannot state (which cards,
sets and users exist, who holds which password) and rules across fields or parameters that
OpenAPI 3.0 cannot write down. The schema hook below adds them to their operations'
descriptions, so that a person reading the docs, a generated client and a fuzzer all know them
(tests/api/fuzz_refusals.py is the fuzz's matching list, held to this one by a test)."""

from __future__ import annotations

from typing import Any

# Operations that read a whole deck from the body (cards, text or a deck code).
_POSTED_DECK = (
    "POST /api/v1/decks/",
    "POST /api/v1/decks/validate/",
    "POST /api/v1/goldfish/",
    "POST /api/v1/playtest/",
    "POST /api/v1/proxies.pdf",
)
_SAVED_DECK = ("PUT /api/v1/decks/{id}/", "PATCH /api/v1/decks/{id}/")
_DECK_CONTENTS = (
    "`cards`, `text`, `code`: they name cards of the catalogue, which the schema cannot list "
    "(a 400 `invalid_cards` names each card not known); a deck has at most as many cards and "
    "entries as its game's largest format allows, and a decklist at most as many lines, "
    "counted across the whole list; a deck code must decode, and be for this game."
)
_FACTION = "`faction`: a faction of the deck's game (the game's factions are catalogue rows)."
_PRECONDITION = (
    "`If-Match` (the deck's ETag) or the body's `version`: one of them is needed (428 "
    "without), and it must be the version the deck is at (412 for a stale ETag, 409 for a "
    "stale `version`): a choice across header and body that OpenAPI cannot state."
)
_GAP = (
    "`gap`: 0 to 10 mm, but how large a gap leaves room for a card depends on `paper` and "
    "`size` together."
)
_USERNAME = (
    "`username`: another user who exists; who shares or pools with whom is a fact of "
    "earlier requests."
)
_POOL = "`pool`: whether you are in a pool already, or in none, is a fact of earlier requests."
_CONFIRM_EMPTY = (
    "`confirm_empty`: a `replace` by a list that names no card would empty the game's "
    "collection, so it must be true."
)

REFUSALS: dict[str, tuple[str, ...]] = {
    "POST /api/v1/auth/token/": (
        "`non_field_errors`: the username and password must be an account's.",
    ),
    "GET /api/v1/cards/": (
        "`set`, `type`, `faction`: each names a set, card type or faction of the catalogue "
        "(of `game`, when given).",
    ),
    "GET /api/v1/cards/named/": ("Exactly one of `fuzzy` and `exact`, not empty, is given.",),
    "POST /api/v1/odds/": ("`copies` and `draws` are each at most `deck_size`.",),
    **{label: (_DECK_CONTENTS,) for label in _POSTED_DECK},
    "POST /api/v1/decks/": (_DECK_CONTENTS, _FACTION),
    "POST /api/v1/playtest/": (
        _DECK_CONTENTS,
        "`actions`: whether each action is allowed depends on the table the actions before "
        "it left (the error names it as `actions[n]`).",
    ),
    "POST /api/v1/goldfish/": (
        _DECK_CONTENTS,
        "`runs`: at most as many as the work of the policy's games allows (a longer game "
        "leaves room for fewer runs).",
        "`policy`: the options of the posted deck's game and format, each within its range.",
    ),
    "POST /api/v1/proxies.pdf": (_DECK_CONTENTS, _GAP),
    "GET /api/v1/decks/{id}/proxies.pdf": (_GAP,),
    "GET /api/v1/decks/{id}/proxies.png": (
        _GAP,
        "`page`: from 1 to the sheet's page count, which depends on the deck's cards and the "
        "options.",
    ),
    **{
        label: (
            _DECK_CONTENTS,
            _FACTION,
            _PRECONDITION,
            "`format`: a format of the saved deck's game, which is not in the body.",
            "`maybe`: planned cards are cards of the deck's game, their copies summed across "
            "the list.",
        )
        for label in _SAVED_DECK
    },
    "POST /api/v1/decks/{id}/revert/": (
        "`version`: not the version the deck is at already.",
        "`If-Match` or the body's `expected_version`: one of them is needed (428 without), "
        "and it must be the version the deck is at (412).",
    ),
    "POST /api/v1/decks/{id}/goldfish/": (
        "`policy`: the options of the saved deck's game and format, each within its range.",
        "`runs`: at most as many as the work of the policy's games allows.",
    ),
    "POST /api/v1/collection/shares/": (_USERNAME,),
    "POST /api/v1/collection/pool/invite/": (_USERNAME, _POOL),
    "POST /api/v1/collection/pool/": ("`name`: not blank once spaces are removed.", _POOL),
    "POST /api/v1/collection/pool/accept/": (_POOL,),
    "POST /api/v1/collection/pool/decline/": (
        "`pool`: an invitation you have already accepted is left, not declined.",
    ),
    "POST /api/v1/collection/pool/leave/": (_POOL,),
    "POST /api/v1/collection/import/": (
        "`text`: each line names a card or printing of the catalogue, within the import's "
        "lines and bytes (problems are named by line).",
        _CONFIRM_EMPTY,
    ),
    "POST /api/v1/collection/import/csv/": (
        "`csv`: each line names a card or printing of the catalogue, within the import's "
        "lines and bytes, in UTF-8 (problems are named by line).",
        _CONFIRM_EMPTY,
    ),
}
_CHANGES = (
    "`changes`: each key a column of the game's card schema (its stats are the game's), each "
    "value checked as the importer checks it, and the changes must change the card (a refusal "
    "names the column as `changes.<column>`)."
)
REFUSALS.update(
    {
        **{
            label: (
                _CHANGES,
                "`card`: a card of the catalogue, of `game`; a ruling, erratum, image or edit "
                "names one.",
                "`source`: a rulebook source names its passage, a publisher's page its "
                "http(s) address; in a multipart body, a text starting with `{` is read as a "
                "JSON object.",
                "`photo`: a JPEG, PNG or WebP image, within the limits of art uploads; needed for "
                "an image, and for the printed card as the source.",
            )
            for label in ("POST /api/v1/proposals/", "POST /api/v1/proposals/photo/")
        },
        "POST /api/v1/proposals/{id}/approve/": (_CHANGES,),
        "POST /api/v1/proposals/file/": (
            "`file`: the importer's CSV in UTF-8, every line a valid card of `game` whose "
            "sets, factions and keywords exist already, and at least one card added or "
            "changed (the problems are named by line).",
            "`source`: as a proposal's: a rulebook source names its passage, a publisher's "
            "page its http(s) address; a text starting with `{` is read as a JSON object.",
        ),
        "POST /api/v1/cards/{id}/history/{change}/revert/": (
            "`change`: the addition of a card held in decks or collections cannot be "
            "reverted, nor can an image.",
        ),
        "POST /api/v1/cards/{id}/confirm/": (
            "`card`: a community-sourced card not yet confirmed, whose addition you neither "
            "proposed nor approved.",
        ),
    }
)
REFUSALS.update(
    {
        "POST /api/v1/events/": (
            "`format`: one of `game`'s formats.",
            "`name`: not blank once spaces are removed.",
            "`deadline`: in the future, and at or before `starts_at`.",
            "`starts_at`: at most 730 days ahead.",
        ),
        "POST /api/v1/events/{id}/registrations/": (
            "`deck`: the id of one of your own decks, of the event's game; a deck not legal "
            "in the event's format is a 400 `illegal_deck` naming its problems.",
            "`deadline`: registration closes at the event's decklist deadline.",
            "`event`: the event takes at most 512 players, and none once its standings are "
            "published.",
        ),
        "POST /api/v1/events/{id}/standings/": (
            "`standings`: each player registered in the event and ranked once, each rank from 1 "
            "to the number of players; none once the standings are published.",
        ),
        "POST /api/v1/events/{id}/publish/": ("`event`: not published already.",),
    }
)
HEADING = "**A well-formed request is still a 400 when:**"


def describe_refusals(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: each operation's refusals above, after its
    description."""
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            reasons = REFUSALS.get(f"{method.upper()} {path}")
            if not reasons or not isinstance(operation, dict):
                continue
            listed = "\n".join(f"- {reason}" for reason in reasons)
            description = operation.get("description", "").rstrip()
            operation["description"] = "\n\n".join(filter(None, [description, HEADING, listed]))
    return result
