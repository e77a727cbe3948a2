"""The public bulk-data download of a game's catalogue (JSON and CSV, with provenance): made
once per catalogue version and kept under MEDIA_ROOT/bulk/, so that any approval (which moves
the version) gives the next reader a new file, and nothing else makes one again."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from cardsite.catalogue.documents import write_csv, write_json
from cardsite.catalogue.models import Game
from cardsite.catalogue.selectors import catalogue_document
from cardsite.catalogue.versioning import catalogue_version
from cardsite.files import write_atomically

FORMATS = {"json": "application/json", "csv": "text/csv"}
FOLDER = "bulk"
# One generation of each file at a time in a process: a second reader of the same missing
# file waits for it, and then reads it, rather than making it again (or paying for it); a
# reader of another game's file does not wait.
_LOCKS: dict[tuple[str, str], threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _lock(slug: str, fmt: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault((slug, fmt), threading.Lock())


def bulk_folder() -> Path:
    return Path(settings.MEDIA_ROOT) / FOLDER


def _generate(game: Game, fmt: str) -> bytes:
    document = catalogue_document(game=game)
    if fmt == "json":
        return write_json(document).encode()
    return write_csv(document["cards"], [s.key for s in game.engine.stats]).encode()


def _prune(game: Game, fmt: str, keep: Path) -> None:
    """Remove this game's files of older versions: they are never served again."""
    for old in bulk_folder().glob(f"{game.slug}-*.{fmt}"):
        if old != keep:
            old.unlink(missing_ok=True)


def bulk_file(*, game: Game, fmt: str, before_generating: Callable[[], None]) -> Path:
    """The file of `game`'s catalogue in `fmt` ("json" or "csv") at the current catalogue
    version, made first if missing; `before_generating` runs only then (it may refuse, by
    raising, a client that has made too many)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    version = catalogue_version()
    path = bulk_folder() / f"{game.slug}-{version}.{fmt}"
    if path.exists():
        return path
    with _lock(game.slug, fmt):
        if not path.exists():
            before_generating()
            write_atomically(path, _generate(game, fmt))
            _prune(game, fmt, path)
    return path
