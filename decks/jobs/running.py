"""Running a job to its end: claiming it (once more if its worker died, never twice at
once), its work with its progress written now and then, and its result kept or its failure
said on its row."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from contextlib import nullcontext
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from decks.exports.printing import print_order
from decks.jobs.heartbeat import HEARTBEAT, retried, stale_before
from decks.models import Job
from decks.services import (
    Intake,
    RequestedCard,
    goldfish_run,
    resolve,
)
from engines.errors import InputError

log = logging.getLogger(__name__)

# How often a running job writes its progress: often enough for a status page that polls
# every second or two, rarely enough not to matter to the work.
PROGRESS_INTERVAL = 0.5
# The first run and one more, for a job whose worker died under it.
MAX_ATTEMPTS = 2
STOPPED = "The job was not finished: the worker running it stopped, twice."


def job_expiry() -> timedelta:
    return timedelta(hours=settings.JOB_TTL_HOURS)


class Progress:
    """Counts work done and writes it to the job's row now and then."""

    def __init__(self, job: Job, interval: float | None = None) -> None:
        self.job = job
        self.done = 0
        self.interval = PROGRESS_INTERVAL if interval is None else interval
        self.written_at = time.monotonic()

    def __call__(self, step: int) -> None:
        self.done = min(self.done + step, self.job.total)
        now = time.monotonic()
        if now - self.written_at >= self.interval:
            self.written_at = now
            try:
                Job.objects.filter(pk=self.job.pk).update(done=self.done)
            except OperationalError:
                # A busy database (SQLite's one writer) skips a progress mark; the next one
                # catches up. Progress is for the reader: it must not fail the work.
                log.warning("job %s: progress not written", self.job.key)


def _run_proxies(job: Job, progress: Callable[[int], None]) -> tuple[str, bytes]:
    return f"{job.key}.pdf", print_order(job.params["order"], progress)


def _run_goldfish(job: Job, progress: Callable[[int], None]) -> tuple[str, bytes]:
    params = job.params
    if not Game.objects.filter(slug=params["game"]).exists():
        raise Game.DoesNotExist("the game is no longer in the catalogue")
    requested = tuple(RequestedCard(q, pk=pk, zone=zone) for pk, q, zone in params["entries"])
    resolved = resolve(game=params["game"], intake=Intake(requested))
    if resolved.unsavable:
        raise Card.DoesNotExist("some of the cards are no longer in the catalogue")
    result = goldfish_run(
        resolved=resolved,
        runs=params["runs"],
        seed=params["seed"],
        policy=params["policy"],
        progress=progress,
    )
    return f"{job.key}.json", json.dumps(result).encode()


RUNNERS: dict[str, Callable[[Job, Callable[[int], None]], tuple[str, bytes]]] = {
    Job.Kind.PROXIES: _run_proxies,
    Job.Kind.GOLDFISH: _run_goldfish,
}


def job_run(*, key: str) -> None:
    """Run a queued job to its end. A task comes back while its job is running when the
    worker process running it died (Celery's reject_on_worker_lost), or twice over when
    job_sweep re-queued it meanwhile: a job whose heartbeat has stopped is taken again, once,
    and after that failed; one whose heartbeat is still live is another run's, and left to it,
    as is a finished job."""
    dead = Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=stale_before())
    claimed = retried(
        lambda: Job.objects.filter(
            Q(status=Job.Status.QUEUED)
            | Q(dead, status=Job.Status.RUNNING, attempts__lt=MAX_ATTEMPTS),
            key=key,
        ).update(
            status=Job.Status.RUNNING,
            attempts=F("attempts") + 1,
            started_at=timezone.now(),
            heartbeat_at=timezone.now(),
            done=0,
        )
    )
    if not claimed:
        finish_jobs(
            Job.objects.filter(
                dead, key=key, status=Job.Status.RUNNING, attempts__gte=MAX_ATTEMPTS
            ),
            status=Job.Status.FAILED,
            error=STOPPED,
        )
        return
    # Inline in a request, the job is finished before anyone else can see it; elsewhere (a
    # worker, a job thread) its heartbeat tells the sweep that it is still being run.
    beating = not transaction.get_connection().in_atomic_block
    if beating:
        HEARTBEAT.hold(key)
    try:
        _run_claimed(key)
    finally:
        if beating:
            HEARTBEAT.release(key)


def _run_claimed(key: str) -> None:
    job = Job.objects.get(key=key)
    progress = Progress(job)
    # Run inline inside a request's transaction, a savepoint keeps a failure from spoiling it.
    # A worker runs in autocommit, with no transaction around the work, so that each progress
    # write is seen by the status URL as it happens.
    guard = transaction.atomic() if transaction.get_connection().in_atomic_block else nullcontext()
    try:
        with guard:
            name, content = RUNNERS[job.kind](job, progress)
    except (Card.DoesNotExist, Game.DoesNotExist, InputError) as exc:
        finish_jobs(_this_run(job), status=Job.Status.FAILED, error=str(exc))
        return
    except Exception:
        log.exception("job %s failed", key)
        finish_jobs(_this_run(job), status=Job.Status.FAILED, error="The job failed unexpectedly.")
        return
    job.result.save(name, ContentFile(content), save=False)
    finished = retried(
        lambda: finish_jobs(
            _this_run(job), status=Job.Status.DONE, result=job.result.name, done=F("total")
        )
    )
    if not finished:
        # Failed meanwhile (past its time limit), or taken by another run: this result is
        # nobody's.
        job.result.delete(save=False)


def _this_run(job: Job) -> Any:
    """The job, as long as this run is still the one that holds it."""
    return Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING, attempts=job.attempts)


def finish_jobs(jobs: Any, **fields: Any) -> int:
    """End `jobs` with these fields; they expire JOB_TTL_HOURS from now. The number ended."""
    now = timezone.now()
    return int(jobs.update(finished_at=now, expires_at=now + job_expiry(), **fields))
