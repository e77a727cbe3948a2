"""Decklists as people write and share them: plain text, and a compact deck code.

Pure Python (no Django): parsing names lines and cards but resolves nothing; the services
match names to cards and report what they cannot find.

Text format (the site's own export writes the first form; the others are how other deck
tools write their lists, and are read the same way):
    # comments start with # or //, blank lines are ignored
    Sigils:                       <- a section header selects a zone for the lines below it
    3 Card Name
    3x Card Name (SET) 12         <- an optional set code and collector number
    Card Name                     <- a bare name is one copy
    Sideboard                     <- a sideboard or maybe-board: planned cards, never counted

Every convention read, and the rule for each, is in docs/pages/decks.md, "Decklist text".
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from engines.base import GameEngine, slugify
from engines.bounds import split_lines

# The main zone goes by several names in the wild.
MAIN_ALIASES = {"main", "deck", "maindeck", "main-deck", "mainboard", "main-board", "cards"}
# Sections other tools keep beside a deck: a sideboard (MTG Arena, MTGO, Moxfield, Cockatrice,
# deckstats, TappedOut, Deckbox) and a maybe-board (Moxfield's "Considering", Archidekt's and
# TappedOut's "Maybeboard"). Their cards are the deck's planned cards, outside its count.
PLANNED_ALIASES = {
    "sideboard",
    "side-board",
    "side",
    "sb",
    "maybeboard",
    "maybe-board",
    "maybe",
    "considering",
    "planned",
}
_LINE = re.compile(
    r"^(?:(?P<qty>\d+)\s*[xX\u00d7]?\s+|[xX\u00d7](?P<xqty>\d+)\s+)?"
    r"(?P<name>.+?)(?:\s+\((?P<set>[A-Za-z0-9-]+)\)(?:\s+(?P<num>\S+))?)?$"
)
# A quantity written after the name, by a line that has none before it: `Name x3`, and
# `Name (3)`. Every set code has a letter (tests hold the fixtures to it), so `(3)` is a count.
_QTY_AFTER = re.compile(r"^(?P<name>.+?)\s+(?:[xX\u00d7](?P<x>\d+)|\((?P<paren>\d+)\))$")
# A trailing comment: `//` or `#` with white space before it and after it (or the line's end),
# so `Card #5` keeps its `#`. A split card's name ("Dead // Gone") looks the same, so the line
# keeps it as written too (`ListLine.literal`) and the name as written wins when a card has it.
_COMMENT = re.compile(r"\s+(?://|#)(?:\s.*)?$")
# Markdown and forum lists: `- 3 Name`, `* 3 Name`, `• 3 Name`.
_BULLET = re.compile(r"^[-*•]\s+")
# Cockatrice's and deckstats' sideboard prefix: `SB: 2 Name`.
_SB = re.compile(r"^SB:\s*(?P<rest>.*)$", re.IGNORECASE)
# A header, with its count as other tools write one: `Deck (30):`, `Sideboard (15)`, `Main: 30`.
_HEADER = re.compile(r"^(?P<title>\D.*?)\s*(?:\(\d+\))?\s*(?:(?P<colon>:)\s*(?P<count>\d+)?)?$")
_SPACES = re.compile(r"\s+")
# `// Sideboard (15 cards)`, as Cockatrice-style comments count a section.
_CARDS_COUNT = re.compile(r"\s*\(\s*(\d+)\s*cards?\s*\)$", re.IGNORECASE)
MAX_QUANTITY = 99
# A decklist's lines, counted as parse_text splits them (every line break splitlines knows).
MAX_LINES = 1_000
# A line's characters (its white space runs counted as one): a card's name has at most 120, so
# a longer line is a problem on its line, read no further.
MAX_LINE_CHARS = 500
# A deck code is at most this long, and inflates to at most this many bytes: a few hundred
# entries take a few kilobytes, so anything near these is not a deck (a zlib bomb inflates
# a small paste into hundreds of megabytes).
MAX_CODE_CHARS = 20_000
MAX_CODE_BYTES = 1_000_000
MAX_CODE_ENTRIES = 500
# Where the lines of a planned section go (parse_text's own marker, never an engine's zone).
PLANNED = "planned"
_UNKNOWN = "?"
# MTG Arena's export opens with `About` and the deck's `Name ...`: not cards.
_ABOUT = "about"


@dataclass(frozen=True)
class ListLine:
    line: int
    quantity: int
    name: str
    zone: str | None
    set_code: str | None = None
    number: str | None = None
    # A sideboard's or maybe-board's card: kept beside the deck, never counted into it.
    planned: bool = False
    # The line read without taking a trailing `// ...` or `# ...` as a comment, when it has
    # one: the card to use if a card is named so ("Dead // Gone").
    literal: ListLine | None = None


@dataclass(frozen=True)
class ListProblem:
    line: int
    message: str
    # A notice, not an error: the list was read, and this says how (a sideboard found by
    # a blank line).
    notice: bool = False

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def zone_for_header(engine: GameEngine, header: str, *, exact: bool = False) -> str | None:
    """The zone a section header names: a zone's slug or name (or, unless `exact`, the start
    of its name: "Battle" for "Battle deck"), the main zone by its common aliases, or
    PLANNED for a sideboard or maybe-board. None for any other header."""
    wanted = slugify(header)
    if not wanted:
        return None
    for zone in engine.zones:
        name = slugify(zone.name)
        if wanted in (zone.slug, name) or (not exact and name.startswith(wanted)):
            return zone.slug
    if wanted in MAIN_ALIASES and engine.zones:
        return engine.zones[0].slug
    if wanted in PLANNED_ALIASES:
        return PLANNED
    return None


@dataclass
class _Read:
    """One line as first read: a card, a header, a comment or a blank."""

    number: int
    kind: str  # "card", "header", "blank", "long" (past MAX_LINE_CHARS; text is its length)
    text: str = ""
    zone: str | None = None
    planned: bool = False
    counted: bool = False  # written with its quantity in front, as MTGO and MTG Arena do


def _header(line: str, engine: GameEngine) -> tuple[str | None, str] | None:
    """(zone, title) when the line is a header; its zone is None for a section this game does
    not have. None when the line is not a header at all."""
    match = _HEADER.match(line)
    if match is None:
        return None
    title = match["title"].strip()
    if match["colon"] and match["count"] is None:
        # `Anything:` is a header, as it always was here; a name never ends in a colon.
        return zone_for_header(engine, title), title
    # Without a colon, or with a count after it (`Main: 30`), only a section this game or
    # another tool knows is a header: `Sample: 3` stays a card.
    zone = zone_for_header(engine, title, exact=True)
    return (zone, title) if zone is not None else None


def _classify(number: int, raw: str, engine: GameEngine) -> _Read | None:
    # A byte-order mark starts a file saved by Windows tools, and stays at a line's start when
    # files are joined or line ends converted; it is never part of a card's name.
    # White space runs are one space: the patterns below then never rescan a run (a line of
    # 100,000 spaces between two words took main's pattern 40 seconds), and `3  Name` is
    # `3 Name`.
    line = _SPACES.sub(" ", raw.replace("\ufeff", "")).strip()
    if not line:
        return _Read(number, "blank")
    if len(line) > MAX_LINE_CHARS:
        return _Read(number, "long", str(len(line)))
    if line.startswith("#"):
        return None
    if line.startswith("//"):
        # deckstats and Cockatrice write `//Sideboard`, `// Sideboard (15 cards)`; any other
        # `//` line is a comment.
        found = _header(_CARDS_COUNT.sub(r" (\1)", line[2:].strip()), engine)
        if found is None or found[0] is None:
            return None
        return _Read(number, "header", found[1], found[0])
    line = _BULLET.sub("", line)
    if line.startswith(("#", "//")):
        return None
    sb = _SB.match(line)
    if sb is not None:
        rest = sb["rest"].strip()
        if not rest or rest.startswith(("#", "//")):
            # `SB:` alone heads a sideboard, as `Sideboard:` does.
            return _Read(number, "header", "SB", PLANNED)
        return _Read(number, "card", rest, planned=True, counted=rest[:1].isdigit())
    if line.casefold() == _ABOUT:
        return _Read(number, "header", "About", _ABOUT)
    if not line[0].isdigit():
        found = _header(line, engine)
        if found is not None:
            return _Read(number, "header", found[1], found[0])
    return _Read(number, "card", line, counted=line[0].isdigit())


def _blank_line_sideboard(reads: list[_Read]) -> int | None:
    """Where a sideboard starts by MTGO's and MTG Arena's convention, or None.

    Their exports write the deck, one blank line, then the sideboard, without headers, every
    line starting with its quantity. Only a list of exactly that shape is read so: no header
    and no `SB:` anywhere, every card line counted, the cards in exactly two blocks. A list
    with headers, or with cards in three or more blocks (a hand-written list grouped by type),
    keeps blank lines as spacing."""
    blocks: list[list[_Read]] = []
    gap = True
    for read in reads:
        if read.kind in ("header", "long") or read.planned:
            return None
        if read.kind == "blank":
            gap = True
        elif read.kind == "card":
            if not read.counted:
                return None
            if gap:
                blocks.append([])
                gap = False
            blocks[-1].append(read)
    return blocks[1][0].number if len(blocks) == 2 else None


def parse_text(
    text: str,
    engine: GameEngine,
    most: int = MAX_QUANTITY,
    *,
    max_lines: int = MAX_LINES,
    what: str = "A decklist",
) -> tuple[list[ListLine], list[ListProblem]]:
    """Lines of a text decklist, and the problems found, each naming its line. `most` is the
    largest quantity a line may hold (a collection holds more copies than a deck). InputError
    naming `text` for more than `max_lines` lines, before any line is read. One pass over the
    lines to classify them, one to read them: linear in the text."""
    split = split_lines(text, most=max_lines, field="text", what=what)
    reads = [r for n, raw in enumerate(split, start=1) if (r := _classify(n, raw, engine))]
    sideboard_at = _blank_line_sideboard(reads)
    lines: list[ListLine] = []
    problems: list[ListProblem] = []
    zone: str | None = None
    # An unknown section's problem, and the card lines under it, left out of the deck.
    unknown: tuple[int, str] | None = None
    left_out: list[int] = []

    def close_unknown() -> None:
        if unknown is not None:
            problems.append(_unknown_section(engine, *unknown, left_out))
            left_out.clear()

    for read in reads:
        if read.number == sideboard_at:
            zone = PLANNED
            problems.append(
                ListProblem(
                    read.number,
                    "the cards from here on, after a blank line, are read as a sideboard (as "
                    "MTGO and MTG Arena write one) and kept with the planned cards",
                    notice=True,
                )
            )
        if read.kind == "header":
            close_unknown()
            unknown = None if read.zone is not None else (read.number, read.text)
            zone = read.zone if read.zone is not None else _UNKNOWN
            continue
        if read.kind == "long":
            problems.append(
                ListProblem(
                    read.number,
                    f"a line has at most {MAX_LINE_CHARS} characters; "
                    f"this one has {int(read.text):,}",
                )
            )
            continue
        if read.kind != "card":
            continue
        if zone == _ABOUT:
            if not read.text.startswith("Name "):
                problems.append(
                    ListProblem(read.number, "only the deck's `Name ...` is read under About")
                )
            continue
        if zone == _UNKNOWN and not read.planned:
            left_out.append(read.number)
            continue
        found = _card(read, most, zone, read.planned or zone == PLANNED)
        if isinstance(found, ListProblem):
            problems.append(found)
        else:
            lines.append(found)
    close_unknown()
    return lines, problems


def _unknown_section(
    engine: GameEngine, number: int, title: str, left_out: list[int]
) -> ListProblem:
    known = ", ".join(z.name for z in engine.zones)
    skipped = (
        f" (left out of the deck: line{'s' if len(left_out) > 1 else ''} "
        f"{', '.join(map(str, left_out[:20]))}{'…' if len(left_out) > 20 else ''})"
        if left_out
        else ""
    )
    return ListProblem(
        number,
        f"unknown section '{title[:60]}'{skipped}; {engine.name} has: {known}, "
        "and Sideboard or Maybeboard for planned cards",
    )


def _card(read: _Read, most: int, zone: str | None, planned: bool) -> ListLine | ListProblem:
    """A card line read, or the problem with it."""
    line = read.text
    # Never empty: the note needs white space before it, and the line was stripped.
    uncommented = _COMMENT.sub("", line)
    found = _line(read.number, uncommented, most, zone, planned)
    if isinstance(found, ListLine) and uncommented != line:
        literal = _line(read.number, line, most, zone, planned)
        if isinstance(literal, ListLine):
            found = replace(found, literal=literal)
    return found


def _line(
    number: int, line: str, most: int, zone: str | None, planned: bool
) -> ListLine | ListProblem:
    match = _LINE.match(line)
    assert match is not None  # the pattern accepts any non-empty line
    digits = match["qty"] or match["xqty"]
    name = match["name"].strip()
    set_code = match["set"].upper() if match["set"] else None
    card_number = match["num"]
    if digits is None and (after := _QTY_AFTER.match(line)) is not None:
        digits, name, set_code, card_number = (
            after["x"] or after["paren"],
            after["name"],
            None,
            None,
        )
    digits = digits or "1"
    # A quantity of thousands of digits must not reach int(), which refuses it with an
    # error (and would cost time to convert).
    quantity = int(digits) if len(digits) <= len(str(most)) else most + 1
    if not 1 <= quantity <= most:
        shown = digits if len(digits) <= 8 else f"{digits[:8]}…"
        return ListProblem(number, f"quantity {shown} must be 1 to {most}")
    return ListLine(
        number, quantity, name.strip(), None if planned else zone, set_code, card_number, planned
    )


@dataclass(frozen=True)
class ExportEntry:
    quantity: int
    name: str
    zone: str
    set_code: str
    number: str


def to_text(entries: Iterable[ExportEntry], engine: GameEngine, title: str = "") -> str:
    """A decklist in the text format, one section per zone, that parse_text reads back."""
    entries = list(entries)
    out = [f"# {title}"] if title else []
    for zone in engine.zones:
        in_zone = [e for e in entries if e.zone == zone.slug]
        if not in_zone:
            continue
        if out:
            out.append("")
        out.append(f"{zone.name}:")
        out += [
            f"{e.quantity} {e.name} ({e.set_code}) {e.number}"
            for e in sorted(in_zone, key=lambda e: e.name)
        ]
    return "\n".join(out) + "\n"


# --- deck codes ---------------------------------------------------------------------------

CODE_PREFIX = "cs1"


class DeckCodeError(ValueError):
    pass


def encode_code(
    game: str, fmt: str, faction: str | None, entries: Iterable[tuple[str, int, str]]
) -> str:
    """A deck as one copy-pasteable string: `cs1.<payload>.<checksum>`.

    The payload is zlib-compressed JSON (game, format, faction, entries of short id, quantity,
    zone) in URL-safe base64; the checksum (CRC-32 of the payload) catches a mangled paste.
    `cs1` is the version, so a later encoding can be told apart.
    """
    body = {
        "g": game,
        "f": fmt,
        "c": faction,
        "e": sorted([list(e) for e in entries], key=lambda e: (e[2], e[0])),
    }
    raw = zlib.compress(json.dumps(body, separators=(",", ":")).encode(), 9)
    payload = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return f"{CODE_PREFIX}.{payload}.{zlib.crc32(payload.encode()):08x}"


def decode_code(code: str) -> Mapping[str, object]:
    """The deck a code holds: game, format, faction and (short id, quantity, zone) entries.

    Raises DeckCodeError, saying what is wrong, for anything that is not a valid code.
    """
    if len(code) > MAX_CODE_CHARS:
        raise DeckCodeError(f"a deck code has at most {MAX_CODE_CHARS:,} characters")
    parts = code.strip().split(".")
    if len(parts) != 3:
        raise DeckCodeError("a deck code has three parts separated by dots, like cs1.xxxx.xxxxxxxx")
    version, payload, checksum = parts
    if version != CODE_PREFIX:
        raise DeckCodeError(f"unknown deck code version '{version}'; this site reads {CODE_PREFIX}")
    if f"{zlib.crc32(payload.encode()):08x}" != checksum.lower():
        raise DeckCodeError("the deck code is damaged: its checksum does not match")
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, MAX_CODE_BYTES)
        if inflater.unconsumed_tail or not inflater.eof:
            raise DeckCodeError(f"a deck code inflates to at most {MAX_CODE_BYTES:,} bytes")
        body = json.loads(data)
        if len(body["e"]) > MAX_CODE_ENTRIES:
            raise DeckCodeError(f"a deck code holds at most {MAX_CODE_ENTRIES} entries")
        entries = [_code_entry(e) for e in body["e"]]
        faction = body["c"]
        if faction is not None and not isinstance(faction, str):
            raise DeckCodeError("the deck code's faction is not a name")
        return {
            "game": _short_text(body["g"], 60),
            "format": _short_text(body["f"], 40),
            "faction": faction and _short_text(faction, 60),
            "entries": entries,
        }
    except (ValueError, KeyError, TypeError, zlib.error, RecursionError) as exc:
        if isinstance(exc, DeckCodeError):
            raise
        raise DeckCodeError("the deck code cannot be read") from None


def _short_text(value: object, limit: int) -> str:
    if not isinstance(value, str) or not value or len(value) > limit or "\x00" in value:
        raise DeckCodeError(
            f"the deck code holds a name that is not text of 1 to {limit} characters"
        )
    return value


def _code_entry(entry: object) -> tuple[str, int, str]:
    if not isinstance(entry, list) or len(entry) != 3:
        raise DeckCodeError("each entry of a deck code is [card id, quantity, zone]")
    short_id, quantity, zone = entry
    if isinstance(quantity, bool) or not isinstance(quantity, int):
        raise DeckCodeError("a quantity in the deck code is not a whole number")
    if not 1 <= quantity <= MAX_QUANTITY:
        raise DeckCodeError(
            f"a quantity in the deck code is {quantity}; it must be 1 to {MAX_QUANTITY}"
        )
    return _short_text(short_id, 12), quantity, _short_text(zone, 20)
