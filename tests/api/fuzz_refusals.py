"""What a well-formed request to the API can still be refused for, which the schema fuzz
(test_schema_fuzz.py) accepts as documented 400s."""

import re

from cardsite.api.parsers import bad_text_message

# What a well-formed request can still be refused for: facts the schema cannot state, and
# rules across fields or parameters that OpenAPI 3.0 cannot write down. Every one of them is a
# documented 400 on its operation. A "schema-valid request rejected" failure
# (positive_data_acceptance, ST202) is dropped only when every error in the 400 is one of
# these, on the operations named: (operations or None for any, field, message). Any other
# error in the same answer, and every other failure of every check, stands.
PROXY_PAGE = "GET /api/v1/decks/{id}/proxies.png"
PROXIES = {"GET /api/v1/decks/{id}/proxies.pdf", "POST /api/v1/proxies.pdf", PROXY_PAGE}
REPLACE, CHANGE = "PUT /api/v1/decks/{id}/", "PATCH /api/v1/decks/{id}/"
REVERT = "POST /api/v1/decks/{id}/revert/"
SAVED_DECK = {REPLACE, CHANGE}
SAVED_DECK_GOLDFISH = {"POST /api/v1/decks/{id}/goldfish/"}
SHARE, CREATE_POOL = "POST /api/v1/collection/shares/", "POST /api/v1/collection/pool/"
INVITE, ACCEPT = "POST /api/v1/collection/pool/invite/", "POST /api/v1/collection/pool/accept/"
LEAVE = "POST /api/v1/collection/pool/leave/"
IMPORTS = {"POST /api/v1/collection/import/", "POST /api/v1/collection/import/csv/"}
PROPOSE = {"POST /api/v1/proposals/", "POST /api/v1/proposals/photo/"}
APPROVE = "POST /api/v1/proposals/{id}/approve/"
CARD_FILE = "POST /api/v1/proposals/file/"
EVENT = "POST /api/v1/events/"
EVENT_WRITES = {
    "POST /api/v1/events/{id}/registrations/",
    "POST /api/v1/events/{id}/standings/",
    "POST /api/v1/events/{id}/publish/",
}
REFUSED_FOR_A_FACT = [
    # An event's format is its game's, its times are checked against the clock and each
    # other, and what its players and standings may be depends on earlier requests.
    ({EVENT}, "format", ".+ has no format "),
    ({EVENT}, "name", "An event needs a name"),
    ({EVENT}, "deadline", "The decklist deadline"),
    ({EVENT}, "starts_at", "An event starts at most"),
    (EVENT_WRITES, "deck|deadline|event|standings", "."),
    # A proposal's changes are checked by its game's card schema, as the importer checks a
    # card file; which card it names, and its source's kind, decide what else it needs.
    ({*PROPOSE, APPROVE}, r"changes(\..+)?", "."),
    (PROPOSE, "card", "No such card|this kind of proposal is about a card|the card belongs"),
    (
        PROPOSE,
        "source",
        "a rulebook source names|a publisher's page is given|not a JSON object"
        "|every proposal needs",
    ),
    (
        PROPOSE,
        "photo",
        "a printed card as the source needs|a card image proposal needs|Upload a valid image",
    ),
    # A card file is checked whole by the importer, and its source as a proposal's is.
    ({CARD_FILE}, "file", "."),
    (
        {CARD_FILE},
        "source",
        "the source is JSON|a rulebook source names|a publisher's page is given"
        "|every proposal needs|a printed card as the source",
    ),
    (
        {"POST /api/v1/cards/{id}/history/{change}/revert/"},
        "change",
        "the card is held|an image is replaced",
    ),
    ({"POST /api/v1/cards/{id}/confirm/"}, "card", "only a community-sourced|a second curator"),
    # Who holds which password.
    (
        {"POST /api/v1/auth/token/"},
        "non_field_errors",
        "Unable to log in with provided credentials",
    ),
    # Sets, factions and card types are catalogue rows, not a list the schema can hold.
    ({"GET /api/v1/cards/"}, "set", "No set "),
    ({"GET /api/v1/cards/"}, "type", "No card type "),
    ({"GET /api/v1/cards/"}, "faction", "No faction "),
    (None, "faction", ".+ has no faction "),
    # A saved deck's game is not in the body, so its formats and policy options cannot be tied
    # to it there (a posted deck's are: the schema has one anyOf branch a game).
    (SAVED_DECK, "format", ".+ has no format "),
    # Planned cards are catalogue rows too, and their copies are summed across the list.
    (SAVED_DECK, "maybe", r"'.*' is not an? .+ card\.|A planned card's quantity is 1 to "),
    # Which version a deck is at: reverting to it changes nothing.
    ({REVERT}, "version", r"The deck is at version \d+ already\."),
    (
        SAVED_DECK_GOLDFISH,
        r"policy(\.\w+)?",
        r"unknown policy option|at most \d+ options|must be between",
    ),
    # Sums and products across a body: the cards in a deck against its game's largest format
    # and the entries and lines a deck may have (counted in its text or code too), the runs
    # against the work its policy's games take, the draws and copies against the deck.
    (None, "cards|text|code", r"A (.+ )?deck has at most [\d,]+ (cards|entries)"),
    (None, "text", r"A decklist has at most [\d,]+ lines"),
    (None, "runs", r"at most [\d,]+ runs with this policy"),
    ({"POST /api/v1/odds/"}, "draws", "cannot draw "),
    ({"POST /api/v1/odds/"}, "copies", r"\d+ copies cannot be in "),
    # Whether an action is allowed depends on the table the actions before it left.
    ({"POST /api/v1/playtest/"}, "actions", r"actions\[\d+\]: "),
    # A gap between cards is 0 to 10 mm, but how much fits depends on the paper and card size.
    (PROXIES, "gap", ".+ leaves no room on "),
    # How many pages a deck's sheet has depends on its cards and on the options.
    ({PROXY_PAGE}, "page", r"must be from 1 to \d+: this sheet has|this sheet has no cards"),
    # A deck code's contents: whether it decodes, and which game it is for.
    (None, "code", "That deck code cannot be used|This is an? .+ deck code|This deck code is for"),
    # Who exists, and who shares or pools with whom: the fuzzing user's earlier requests make
    # pools and shares of their own.
    (
        {SHARE, INVITE},
        "username",
        "There is no user called|Give a username|Your collection is yours|You are in this pool",
    ),
    ({CREATE_POOL}, "name", "Give the pool a name"),
    (
        {CREATE_POOL, INVITE, ACCEPT, LEAVE},
        "pool",
        "You are in a pool already|You are in no pool",
    ),
    # A collection import's lines name cards and printings of the catalogue, and its size and
    # encoding are counted in lines and bytes (every problem starts "line N"). An empty file
    # part never reaches the view: Django's multipart parser drops it.
    (
        IMPORTS,
        "text|csv",
        r"line \d+|An import (is|has) at most|The file (is not UTF-8|holds a NUL)"
        r"|The submitted file is empty|No file was submitted",
    ),
    # Whether a replace's list names a card depends on what its lines say: one naming none
    # would empty the game, so it needs confirm_empty (as the field's description says).
    (IMPORTS, "confirm_empty", "The list names no card"),
    # No text anywhere in a request may hold a NUL (cardsite/api/parsers.py, and the query
    # string's check in cardsite/middleware.py). The schema's description says so, but
    # OpenAPI 3.0 cannot say it of property names, and the generator puts NULs in them.
    (None, ".*", re.escape(bad_text_message())),
]
