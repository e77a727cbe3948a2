"""The heartbeat of background jobs. A worker that dies takes its job's heartbeat with it: the
process holding a job (the worker running it, or the web process whose threads queue or run
it) writes the job's heartbeat_at every JOB_HEARTBEAT_SECONDS, and decks.jobs.job_sweep, run
when the job's status is read, when a job is asked for and by beat every half minute, queues
again a job silent for JOB_HEARTBEAT_STALE_SECONDS (once; the second time it is failed). The
broker alone would hand the task back only after its visibility timeout, an hour, or never if
the worker's main process was killed with it."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection
from django.utils import timezone

from decks.models import Job

log = logging.getLogger(__name__)

ACTIVE = (Job.Status.QUEUED, Job.Status.RUNNING)


def stale_before() -> Any:
    return timezone.now() - timedelta(seconds=settings.JOB_HEARTBEAT_STALE_SECONDS)


def may_need_settling(job: Job) -> bool:
    """Whether job_sweep could change `job` as read: its heartbeat is stale (which a job that
    no worker took up again also is), or it has run past its time limit. A status read sweeps
    only then, so that polling a live job writes nothing: a GET that wrote would take SQLite's
    write lock beside the job's own progress writes."""
    if job.heartbeat_at is not None and job.heartbeat_at < stale_before():
        return True
    limit = timezone.now() - timedelta(seconds=settings.JOB_TIME_LIMIT_SECONDS)
    return job.started_at is not None and job.started_at <= limit


def retried(write: Callable[[], int], attempts: int = 40) -> int:
    """A short write tried again while SQLite refuses it as locked: a job thread writes beside
    the web requests, and SQLite lets one writer in at a time (an in-memory database, as the
    tests use, without waiting at all). Other errors, and PostgreSQL's, go straight up."""
    for attempt in range(attempts):
        try:
            return write()
        except OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.05)
    return 0


class Heartbeat:
    """The jobs this process holds (running, or queued in its threads), and a thread beside the
    work that writes their heartbeat_at every JOB_HEARTBEAT_SECONDS: the work itself writes
    only progress, which a long step or a wait for a thread leaves unwritten for a while. The
    thread ends when the process holds no job, and another starts with the next one (also in
    a forked worker process, which inherits the set but not the thread)."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.pid = 0

    def hold(self, key: str) -> None:
        with self.lock:
            if self.pid != os.getpid():
                self.pid, self.keys, self.thread = os.getpid(), set(), None
            self.keys.add(key)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(
                    target=self._beat, name="cardsite-job-heartbeat", daemon=True
                )
                self.thread.start()

    def release(self, key: str) -> None:
        with self.lock:
            self.keys.discard(key)

    def _beat(self) -> None:
        while True:
            time.sleep(settings.JOB_HEARTBEAT_SECONDS)
            with self.lock:
                keys = list(self.keys)
                if not keys:
                    self.thread = None
                    return
            try:
                retried(partial(_write_heartbeat, keys))
            except Exception:
                # A missed beat is made up by the next; the sweep waits for several.
                log.warning("job heartbeat not written for %s", keys, exc_info=True)
            finally:
                # No connection kept between beats: nothing may hold one the process does
                # not use (PostgreSQL cannot drop a database a connection is open on).
                connection.close()


def _write_heartbeat(keys: list[str]) -> int:
    return int(
        Job.objects.filter(key__in=keys, status__in=ACTIVE).update(heartbeat_at=timezone.now())
    )


HEARTBEAT = Heartbeat()
