"""Decklists as people write and share them: plain text, and a compact deck code.

Pure Python (no Django): parsing names lines and cards but resolves nothing; the services
match names to cards and report what they cannot find.

Text format:
    # comments start with # or //, blank lines are ignored
    Sigils:                       <- a section header selects a zone for the lines below it
    3 Card Name
    3x Card Name (SET) 12         <- an optional set code and collector number
    Card Name                     <- a bare name is one copy
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engines.base import GameEngine, slugify
from engines.bounds import split_lines

# The main zone goes by several names in the wild.
MAIN_ALIASES = {"main", "deck", "maindeck", "main-deck", "cards"}
_LINE = re.compile(
    r"^(?:(?P<qty>\d+)\s*[xX]?\s+)?(?P<name>.+?)(?:\s+\((?P<set>[A-Za-z0-9-]+)\)(?:\s+(?P<num>\S+))?)?$"
)
MAX_QUANTITY = 99
# A decklist's lines, counted as parse_text splits them (every line break splitlines knows).
MAX_LINES = 1_000
# A deck code is at most this long, and inflates to at most this many bytes: a few hundred
# entries take a few kilobytes, so anything near these is not a deck (a zlib bomb inflates
# a small paste into hundreds of megabytes).
MAX_CODE_CHARS = 20_000
MAX_CODE_BYTES = 1_000_000
MAX_CODE_ENTRIES = 500


@dataclass(frozen=True)
class ListLine:
    line: int
    quantity: int
    name: str
    zone: str | None
    set_code: str | None = None
    number: str | None = None


@dataclass(frozen=True)
class ListProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def zone_for_header(engine: GameEngine, header: str) -> str | None:
    wanted = slugify(header)
    for zone in engine.zones:
        if wanted in (zone.slug, slugify(zone.name)) or slugify(zone.name).startswith(wanted):
            return zone.slug
    if wanted in MAIN_ALIASES and engine.zones:
        return engine.zones[0].slug
    return None


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
    naming `text` for more than `max_lines` lines, before any line is read."""
    lines: list[ListLine] = []
    problems: list[ListProblem] = []
    zone: str | None = None
    split = split_lines(text, most=max_lines, field="text", what=what)
    for number, raw in enumerate(split, start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        if line.endswith(":") and not line[0].isdigit():
            zone = zone_for_header(engine, line[:-1])
            if zone is None:
                known = ", ".join(f"{z.name}" for z in engine.zones)
                problems.append(
                    ListProblem(
                        number, f"unknown section '{line[:-1]}'; {engine.name} has: {known}"
                    )
                )
            continue
        match = _LINE.match(line)
        if match is None:  # pragma: no cover - the pattern accepts any non-empty line
            problems.append(ListProblem(number, f"cannot read '{line}'"))
            continue
        digits = match["qty"] or "1"
        # A quantity of thousands of digits must not reach int(), which refuses it with an
        # error (and would cost time to convert).
        quantity = int(digits) if len(digits) <= len(str(most)) else most + 1
        if not 1 <= quantity <= most:
            shown = digits if len(digits) <= 8 else f"{digits[:8]}…"
            problems.append(ListProblem(number, f"quantity {shown} must be 1 to {most}"))
            continue
        lines.append(
            ListLine(
                number,
                quantity,
                match["name"].strip(),
                zone,
                match["set"].upper() if match["set"] else None,
                match["num"],
            )
        )
    return lines, problems


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
