"""Files the site draws and keeps (faces, backs, print art, a deck's pictures)."""

from __future__ import annotations

import os
import uuid
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` at `path`, making its folder: written aside and renamed, so a concurrent
    request never reads a half-written file, and a failed write leaves nothing behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
