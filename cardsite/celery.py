"""The Celery application: it runs decks' background jobs when CELERY_BROKER_URL is set.

Start a worker with `celery -A cardsite worker` (and `celery -A cardsite beat` for the
half-minute sweep of jobs whose worker died, the hourly purge of expired job results and the
daily purge of decks deleted long enough ago).

Beat and workers say they are alive: each writes a record into the broker's Redis every
ALIVE_EVERY seconds, which Redis forgets ALIVE_FOR seconds later, and the system check below
(`manage.py check`) reports a beat with no worker seen (its tasks pile up in the broker, or
go to nobody) and more than one beat (each sends every task). A beat started inside a worker
(`worker --beat`) whose worker is killed stops itself at its next tick rather than schedule
on as an orphan."""

import json
import logging
import os
import socket
import threading
import time
from typing import Any

import redis
from celery import Celery, signals
from celery.beat import PersistentScheduler
from django.core import checks

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings.local")

app = Celery("cardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)

# How often beat and each worker write that they are alive, and how long a record outlives its
# writer: several missed writes, so that a busy moment is not reported as a death.
ALIVE_EVERY = 10.0
ALIVE_FOR = 60
PREFIX = "cardsite:celery:alive"
WORKER_LAST_SEEN = "cardsite:celery:worker-last-seen"


def _broker() -> redis.Redis:
    from django.conf import settings

    return redis.Redis.from_url(
        settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2
    )


def record_alive(role: str, **extra: Any) -> None:
    """Say in the broker that this process, a "beat" or a "worker", is alive."""
    now = time.time()
    record = {"host": socket.gethostname(), "pid": os.getpid(), "at": now, **extra}
    broker = _broker()
    broker.set(
        f"{PREFIX}:{role}:{record['host']}:{record['pid']}", json.dumps(record), ex=ALIVE_FOR
    )
    if role == "worker":
        broker.set(WORKER_LAST_SEEN, str(now))


def alive(role: str) -> list[dict[str, Any]]:
    broker = _broker()
    found = [broker.get(key) for key in broker.scan_iter(f"{PREFIX}:{role}:*")]
    return sorted((json.loads(raw) for raw in found if raw), key=lambda r: (r["host"], r["pid"]))


# The worker whose process started this beat, if it runs inside one (`worker --beat`).
_EMBEDDED_IN: int | None = None


@signals.beat_embedded_init.connect
def _remember_worker(**_: Any) -> None:
    global _EMBEDDED_IN
    _EMBEDDED_IN = os.getppid()


class LivenessScheduler(PersistentScheduler):
    """Celery's own scheduler (the schedule in a local file), which also says at each tick that
    beat is alive, and stops a beat whose worker was killed under it."""

    written_at = 0.0

    def tick(self, *args: Any, **kwargs: Any) -> float:
        if _EMBEDDED_IN is not None and os.getppid() != _EMBEDDED_IN:
            log.error("beat: the worker it ran in (pid %s) is gone; stopping", _EMBEDDED_IN)
            raise SystemExit(1)
        now = time.monotonic()
        if now - self.written_at >= ALIVE_EVERY:
            try:
                record_alive("beat", embedded_in=_EMBEDDED_IN)
                self.written_at = now
            except redis.RedisError:
                log.warning("beat: could not say it is alive", exc_info=True)
        return float(super().tick(*args, **kwargs))


@signals.worker_ready.connect
def _start_saying_alive(**_: Any) -> None:
    """In the worker's main process, the one whose death strands its jobs and its beat."""

    def say() -> None:
        while True:
            try:
                record_alive("worker")
            except redis.RedisError:
                log.warning("worker: could not say it is alive", exc_info=True)
            time.sleep(ALIVE_EVERY)

    threading.Thread(target=say, name="cardsite-worker-alive", daemon=True).start()


def _where(records: list[dict[str, Any]]) -> str:
    return ", ".join(f"pid {r['pid']} on {r['host']}" for r in records)


@checks.register("celery")
def check_beat_has_workers(**_: Any) -> list[checks.CheckMessage]:
    """With a broker: warn of a beat that no worker serves, and of more than one beat."""
    from django.conf import settings

    if not settings.CELERY_BROKER_URL:
        return []
    try:
        beats = alive("beat")
        workers = alive("worker")
        last_seen = _broker().get(WORKER_LAST_SEEN)
    except redis.RedisError as exc:
        return [
            checks.Warning(
                f"Could not reach the Celery broker to look for beat and workers: {exc}",
                id="cardsite.W003",
            )
        ]
    found: list[checks.CheckMessage] = []
    if beats and not workers:
        since = (
            f"for {time.time() - float(last_seen):.0f} s" if last_seen else "since records began"
        )
        found.append(
            checks.Warning(
                f"Celery beat is running ({_where(beats)}) but no worker has been seen {since}:"
                " the tasks it sends (the sweep of stranded jobs, the purges) reach no worker.",
                hint="Start a worker (`celery -A cardsite worker`), or stop the orphaned beat.",
                id="cardsite.W001",
            )
        )
    if len(beats) > 1:
        found.append(
            checks.Warning(
                f"More than one Celery beat is running ({_where(beats)}): each sends every"
                " scheduled task.",
                hint="Stop all but one (a worker started with --beat runs one of its own).",
                id="cardsite.W002",
            )
        )
    return found
