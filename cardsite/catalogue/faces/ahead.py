"""Faces drawn ahead, off the request, and the pictures made of them: a picture of many faces
(a Tabletop Simulator sheet holds seventy) must not spend seconds drawing them inside one
request.

A face costs about 0.14 s to draw the first time (then it is a file, for every page and
picture), about 0.065 s as the drawer writes it (without PNG's slowest encoding); a scaled
copy of a drawn face about 0.015 s. A caller queues the faces a picture
lacks (`draw_ahead`), then the picture itself (`queue_job`: the queue is first in, first out,
so it runs after its faces), and waits for them (`wait_for`) no longer than it may. One
drawing thread per web process, with at most MAX_PENDING jobs waiting, bounds the work however
many ask; and what one client may queue is bounded too: each face queued is granted by the
caller's `allow` (the client's budget, cardsite/limits.py `grant`), at most `most` in one
request (`per_request`).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from cardsite.catalogue.faces.cache import face_path, load_art, scale_face, scaled_path, write_face
from cardsite.catalogue.faces.data import FaceData, face_data
from cardsite.limits import LimitReached

if TYPE_CHECKING:
    from cardsite.catalogue.models import Card

log = logging.getLogger(__name__)

# Scaling a drawn face, in faces drawn.
SCALE_COST = 0.1
# A face as the drawer draws it, and its scaled copy (the estimate behind Retry-After).
FACE_SECONDS = 0.08
MAX_PENDING = 2000

# Grants up to n faces to queue, returning how many may be (or raising to refuse).
Allowance = Callable[[int], int]

_POOL: ThreadPoolExecutor | None = None
_PENDING: dict[Path, Future[None]] = {}
_LOCK = threading.Lock()


def _cost(data: FaceData, size: tuple[int, int]) -> float:
    if scaled_path(data, size).exists():
        return 0.0
    return SCALE_COST if face_path(data).exists() else 1.0


def per_request(allow: Allowance, most: int) -> Allowance:
    """`allow`, granting at most `most` faces in all over one request's calls; refusing (as
    `allow` does, by raising) only while nothing has been granted."""
    left = most

    def take(wanted: int) -> int:
        nonlocal left
        asked = min(wanted, left)
        if asked <= 0:
            return 0
        try:
            granted = allow(asked)
        except LimitReached:
            if left == most:
                raise
            # The budget ran out on a later call: what the earlier ones queued is being
            # drawn, and the request is to say so, not that it started nothing.
            left = 0
            return 0
        # Granted less than asked, the budget is spent: ask no more in this request (what it
        # did queue stands, and a later ask would only refuse it).
        left = left - granted if granted == asked else 0
        return granted

    return take


def draw_ahead(cards: Iterable[Card], size: tuple[int, int], allow: Allowance) -> None:
    """Queue the cards whose face at `size` is missing, as many as `allow` grants, in faces
    drawn (it is asked once, for the faces not already waiting; scaled copies first). Reads
    the cards' data here, so the drawing thread never touches the database."""
    wanted = []
    for card in cards:
        data = face_data(card)
        cost = _cost(data, size)
        if cost:
            wanted.append((data, card, scaled_path(data, size), cost))
    with _LOCK:
        room = max(0, MAX_PENDING - len(_PENDING))
        new = [item for item in wanted if item[2] not in _PENDING][:room]
    # Counted in faces drawn: scaling a drawn face weighs SCALE_COST of one, so ten scaled
    # copies count as one face. Asked outside the lock: it counts in the cache, and may
    # refuse by raising.
    to_scale = [item for item in new if item[3] != 1.0]
    to_draw = [item for item in new if item[3] == 1.0]
    scaling = math.ceil(len(to_scale) * SCALE_COST)
    granted = allow(scaling + len(to_draw)) if new else 0
    chosen = to_scale[: round(granted / SCALE_COST)] + to_draw[: max(0, granted - scaling)]
    with _LOCK:
        for data, card, key, _ in chosen:
            # The paths as they are now: MEDIA_ROOT is read here, not in the thread.
            _submit(key, partial(_draw, data, card, size, face_path(data), key))


def queue_job(
    key: Path, job: Callable[[], None], *, pay: Callable[[], None] = lambda: None
) -> bool:
    """Queue `job` (which must not touch the database) after everything waiting now, once
    per `key` (the file it writes); whether it is waiting (False: the queue is full).
    `pay` (a budget's, which may refuse by raising) is called only by the request that
    queues it: never for a job already waiting or one the full queue turns away."""
    with _LOCK:
        if key not in _PENDING and len(_PENDING) < MAX_PENDING:
            pay()
        return _submit(key, job)


def is_waiting(key: Path) -> bool:
    with _LOCK:
        return key in _PENDING


def wait_for(keys: Iterable[Path], timeout: float) -> None:
    """Wait, at most `timeout` seconds, for the jobs of these keys still waiting."""
    with _LOCK:
        futures = [_PENDING[key] for key in keys if key in _PENDING]
    if futures:
        wait(futures, timeout=timeout)


def _submit(key: Path, job: Callable[[], None]) -> bool:
    """Under _LOCK."""
    global _POOL
    if key in _PENDING:
        return True
    if len(_PENDING) >= MAX_PENDING:
        return False
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardsite-faces")
    _PENDING[key] = _POOL.submit(_run, key, job)
    return True


def seconds_to_wait() -> int:
    """About how long this process's drawer needs for what waits on it now."""
    with _LOCK:
        waiting = len(_PENDING)
    return max(1, math.ceil(waiting * FACE_SECONDS))


def settle() -> None:
    """Drop what waits to be drawn and let the job running finish (a test's end: its media
    folder is about to go)."""
    with _LOCK:
        running = []
        for key, future in list(_PENDING.items()):
            if future.cancel():
                del _PENDING[key]
            else:
                running.append(future)
    wait(running)


def _run(key: Path, job: Callable[[], None]) -> None:
    try:
        job()
    except Exception:
        log.exception("drawing %s ahead failed", key.name)
    finally:
        # No connection to close: a job gets all it reads from the database in the request
        # that queued it (tests/decks/test_tts_drawer.py holds the thread to that).
        with _LOCK:
            _PENDING.pop(key, None)


def _draw(data: FaceData, card: Card, size: tuple[int, int], face: Path, scaled: Path) -> None:
    if not face.exists():
        # Without PNG's slowest encoding: a face drawn ahead is waited for (a save for
        # Tabletop Simulator is handed out once its faces are), and 6 % more bytes on the
        # face page cost less than a face drawn in 65 ms instead of 145.
        write_face(data, art=load_art(card), path=face, optimize=False)
    scale_face(face, scaled, size)
