"""Pictures made from a deck (its Open Graph image, proxy sheet previews and PNG pages), kept
as files.

Each deck has one folder, MEDIA_ROOT/deck-images/<share key>/, never served as files (see
cardsite/media.py): a private deck's pictures go out only through views that check the
reader. A file's name carries a hash of everything it was drawn from, so a changed deck is
drawn again and never served stale; each kind keeps only its newest few files, so a folder
stays small whatever is asked of it, and purging a deck removes its folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from cardsite.files import write_atomically

FOLDER = "deck-images"


def deck_images_folder(share_key: str) -> Path:
    return Path(settings.MEDIA_ROOT) / FOLDER / share_key


def image_path(share_key: str, kind: str, digest: str) -> Path:
    """Where the deck's picture of `kind` whose inputs hash to `digest` is kept."""
    return deck_images_folder(share_key) / f"{kind}-{digest}.png"


def image_digest(inputs: str) -> str:
    """The hash of a picture's inputs that names its file (20 hex digits)."""
    return hashlib.sha256(inputs.encode()).hexdigest()[:20]


def kept_image(*, share_key: str, kind: str, digest: str) -> bytes | None:
    """The PNG of `kind` whose inputs hash to `digest`, if its file is still kept."""
    path = image_path(share_key, kind, digest)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None  # never drawn, or removed by a request keeping the newest
    # Touched, so that the files kept are the ones still in use.
    with contextlib.suppress(FileNotFoundError):
        os.utime(path)
    return data


def cached_image(
    *, share_key: str, kind: str, inputs: str, draw: Callable[[], bytes], keep: int = 1
) -> bytes:
    """The PNG of `kind` drawn from `inputs`: read from its file if there is one, else drawn
    now and kept. At most `keep` files of this kind stay for the deck (the least recently
    used go first)."""
    digest = image_digest(inputs)
    path = image_path(share_key, kind, digest)
    kept = kept_image(share_key=share_key, kind=kind, digest=digest)
    if kept is not None:
        return kept
    png = draw()
    write_atomically(path, png)
    keep_newest(path.parent, kind, keep)
    return png


def keep_newest(folder: Path, kind: str, keep: int) -> None:
    """Remove all but the `keep` most recently used files of `kind` in the folder."""
    mine = []
    for candidate in folder.glob(f"{kind}-*.png"):
        try:
            mine.append((candidate.stat().st_mtime, candidate))
        except FileNotFoundError:
            continue  # removed by a concurrent request
    for _, old in sorted(mine, reverse=True)[keep:]:
        old.unlink(missing_ok=True)
