"""Background jobs: proxy sheets of big decks and long goldfish simulations.

A job is asked for with job_submit. With CELERY_BROKER_URL set, a Celery worker runs it (see
decks.tasks) and the client follows its status URL; without a broker, the default, it runs
right away in the asking process, so the same URLs work on a one-process site, or, for a
goldfish page's simulation estimated past GOLDFISH_INLINE_SECONDS, in a small pool of
threads of the web process (JOB_THREADS of them, at most JOB_THREAD_MAX_ACTIVE such jobs at
once), so that the page can show its progress instead of sitting blank. Results are
files under media/jobs/, readable until the job expires (JOB_TTL_HOURS after it ends), when
job_purge_expired removes the row and the file.

Bounds: one client may have JOB_MAX_ACTIVE_PER_CLIENT jobs queued or running at once; a job
running past JOB_TIME_LIMIT_SECONDS is failed; a job whose worker died is run once more, then
failed: it is found by its silent heartbeat (decks.job_heartbeat, and job_sweep here).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.files.base import ContentFile
from django.db import OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from cardsite.limits import LimitReached
from decks.job_heartbeat import ACTIVE, HEARTBEAT, may_need_settling, retried, stale_before
from decks.models import Job
from decks.printing import SheetOrder, order_cards, print_order
from decks.proxies import pages_for
from decks.selectors import job_for_reader
from decks.services import (
    Intake,
    RequestedCard,
    ResolvedDeck,
    goldfish_check,
    goldfish_run,
    goldfish_work,
    resolve,
)
from engines.errors import InputError

log = logging.getLogger(__name__)

# How often a running job writes its progress: often enough for a status page that polls
# every second or two, rarely enough not to matter to the work.
PROGRESS_INTERVAL = 0.5
RUN_JOB = "decks.tasks.run_job"  # the Celery task that runs a job
# The first run and one more, for a job whose worker died under it.
MAX_ATTEMPTS = 2
STOPPED = "The job was not finished: the worker running it stopped, twice."
NOT_TAKEN = "The job was not finished: the worker running it stopped; no other worker took it up."


def broker_configured() -> bool:
    return bool(settings.CELERY_BROKER_URL)


def _wants_background(*, size: int, threshold: int, prefer_async: bool) -> bool:
    """Whether to answer with a job rather than the result: when the client asked for one
    (Prefer: respond-async), or when a broker exists and the work is large."""
    return prefer_async or (broker_configured() and size >= threshold)


def proxies_job(
    *,
    order: SheetOrder,
    owner: AbstractBaseUser | AnonymousUser | None,
    client: str,
    prefer_async: bool = False,
) -> Job | None:
    """A job printing `order` if it should be one (large, or asked for); None to print it
    inline."""
    if not _wants_background(
        size=order_cards(order), threshold=settings.JOB_PROXY_CARDS, prefer_async=prefer_async
    ):
        return None
    return job_submit(
        kind=Job.Kind.PROXIES,
        params={"order": order},
        total=pages_for(order_cards(order)),
        owner=owner,
        client=client,
    )


def goldfish_seconds(work: float) -> float:
    """How long simulating `work` (goldfish_work's units) takes on one core, estimated."""
    return work / settings.GOLDFISH_WORK_PER_SECOND


def goldfish_job(
    *,
    resolved: ResolvedDeck,
    runs: int,
    seed: int,
    policy: dict[str, Any],
    owner: AbstractBaseUser | AnonymousUser | None,
    client: str,
    deck_key: str | None = None,
    prefer_async: bool = False,
    threaded: bool = False,
) -> Job | None:
    """A job simulating these entries if it should be one (long, or asked for); None to
    simulate inline. Raises InputError, before anything is queued, for a request the
    simulation would refuse.

    `threaded` (the goldfish page): without a broker, a simulation estimated past
    GOLDFISH_INLINE_SECONDS runs in the web process's job threads, and the page follows its
    progress; one below it is answered inline."""
    engine = resolved.snapshot.engine
    goldfish_check(engine=engine, runs=runs, policy=policy)
    work = goldfish_work(engine=engine, runs=runs, policy=policy)
    params = {
        "game": resolved.snapshot.slug,
        "entries": [(e.card.pk, e.quantity, e.zone) for e in resolved.entries],
        "runs": runs,
        "seed": seed,
        "policy": policy,
        "deck": deck_key,
    }
    if threaded and not broker_configured():
        if goldfish_seconds(work) <= settings.GOLDFISH_INLINE_SECONDS:
            return None
        return job_submit(
            kind=Job.Kind.GOLDFISH,
            params=params,
            total=runs,
            owner=owner,
            client=client,
            in_thread=True,
        )
    threshold = settings.JOB_GOLDFISH_RUNS
    if not broker_configured() and work > threshold:
        # With no worker a job would run inside this request all the same: refuse the work
        # rather than burn seconds of a web process on it.
        most = max(1, int(runs * threshold / work))
        raise InputError(
            "runs", f"at most {most:,} runs of this game and policy without a background worker"
        )
    if not _wants_background(size=round(work), threshold=threshold, prefer_async=prefer_async):
        return None
    return job_submit(kind=Job.Kind.GOLDFISH, params=params, total=runs, owner=owner, client=client)


def _ttl() -> timedelta:
    return timedelta(hours=settings.JOB_TTL_HOURS)


def job_submit(
    *,
    kind: Job.Kind,
    params: dict[str, Any],
    total: int,
    owner: AbstractBaseUser | AnonymousUser | None,
    client: str,
    in_thread: bool = False,
) -> Job:
    """Record a job and start it: queued for a worker if a broker is configured, else run now
    (and finished when this returns), or with `in_thread` handed to the web process's job
    threads (and queued or running when this returns). `client` (cardsite.limits.client_key)
    is who asked; raises LimitReached, recording nothing, when they already have as many jobs
    queued or running as one client may, or a threaded job would pass the site's
    JOB_THREAD_MAX_ACTIVE."""
    job_purge_expired()
    with transaction.atomic():
        _lock_for(client)
        active = Job.objects.filter(client=client, status__in=ACTIVE).count()
        limit = settings.JOB_MAX_ACTIVE_PER_CLIENT
        if active >= limit:
            raise LimitReached(
                code="too_many_jobs",
                message=(
                    f"Too many background jobs: the limit is {limit} queued or running at once"
                    f" per client, and you have {active}. Wait for one to finish, then ask again."
                ),
            )
        if in_thread:
            _check_thread_room()
        job = Job.objects.create(
            kind=kind,
            params=params,
            total=max(total, 1),
            owner=owner if owner is not None and owner.is_authenticated else None,
            client=client,
            # Even a job no worker ever takes must go in the end.
            expires_at=timezone.now() + _ttl(),
            heartbeat_at=timezone.now(),
        )
    if broker_configured() or in_thread:
        _start(job.key)
    else:
        job_run(key=job.key)
        job.refresh_from_db()
    return job


_THREADS: ThreadPoolExecutor | None = None
_THREADS_LOCK = threading.Lock()


def _start(key: str) -> None:
    """Hand a queued job to a worker through the broker, or without one to this process's job
    threads. After commit: the worker or thread must find the row, and must not run a job
    whose request failed and rolled back."""
    if broker_configured():
        # By name (decks.tasks registers it), so that this module never imports that one.
        transaction.on_commit(lambda: current_app.send_task(RUN_JOB, args=[key]))
    else:
        transaction.on_commit(lambda: _submit_to_threads(key))


def _submit_to_threads(key: str) -> None:
    # Beating from now: a job waiting for a thread is as much this process's as a running one.
    HEARTBEAT.hold(key)
    _job_threads().submit(_run_in_thread, key)


def _job_threads() -> ThreadPoolExecutor:
    """The web process's pool of job threads, made on first use."""
    global _THREADS
    with _THREADS_LOCK:
        if _THREADS is None:
            _THREADS = ThreadPoolExecutor(
                max_workers=settings.JOB_THREADS, thread_name_prefix="cardsite-job"
            )
        return _THREADS


def _check_thread_room() -> None:
    """Refuse a threaded job past JOB_THREAD_MAX_ACTIVE queued or running on the site: each
    client's own limit does not stop many clients from filling the threads' queue."""
    limit = settings.JOB_THREAD_MAX_ACTIVE
    active = Job.objects.filter(status__in=ACTIVE).count()
    if active >= limit:
        raise LimitReached(
            code="too_many_jobs",
            message=(
                f"Too many background jobs on the site: the limit is {limit} queued or running"
                " at once without a worker. Ask again in a minute, or for fewer games."
            ),
        )


def _run_in_thread(key: str) -> None:
    """Run a job in a job thread, which then gives back its own database connection."""
    try:
        job_run(key=key)
    except Exception:
        # job_run fails the job itself for any error of the work; this is the database
        # failing under it. Say so on the job if the database lets us, so nobody waits on it.
        log.exception("job %s failed in its thread", key)
        try:
            _finish(
                Job.objects.filter(key=key, status__in=ACTIVE),
                status=Job.Status.FAILED,
                error="The job failed unexpectedly.",
            )
        except Exception:
            log.exception("job %s could not be marked failed", key)
    finally:
        HEARTBEAT.release(key)
        connection.close()


def _lock_for(client: str) -> None:
    """Hold, until the transaction ends, a lock on this client's jobs, so that two requests at
    once cannot both count one job too few. PostgreSQL only: SQLite lets one writer in at a
    time anyway."""
    if connection.vendor == "postgresql":
        key = int.from_bytes(hashlib.sha256(client.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


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
        _finish(
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
        _finish(_this_run(job), status=Job.Status.FAILED, error=str(exc))
        return
    except Exception:
        log.exception("job %s failed", key)
        _finish(_this_run(job), status=Job.Status.FAILED, error="The job failed unexpectedly.")
        return
    job.result.save(name, ContentFile(content), save=False)
    finished = retried(
        lambda: _finish(
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


def _finish(jobs: Any, **fields: Any) -> int:
    now = timezone.now()
    return int(jobs.update(finished_at=now, expires_at=now + _ttl(), **fields))


def job_fail_overdue(jobs: Any = None) -> int:
    """Fail every job (of `jobs`, or all) running past JOB_TIME_LIMIT_SECONDS; the number
    failed. Only a job whose heartbeat was still live when its time ran out: one whose worker
    died before that is job_sweep's to run again."""
    limit = settings.JOB_TIME_LIMIT_SECONDS
    stale = settings.JOB_HEARTBEAT_STALE_SECONDS
    overdue = (Job.objects.all() if jobs is None else jobs).filter(
        Q(heartbeat_at__isnull=True)
        | Q(heartbeat_at__gte=F("started_at") + timedelta(seconds=limit - stale)),
        status=Job.Status.RUNNING,
        started_at__lte=timezone.now() - timedelta(seconds=limit),
    )
    return _finish(
        overdue,
        status=Job.Status.FAILED,
        error=f"The job ran past its time limit of {limit} second{'s' if limit != 1 else ''}"
        " and was stopped.",
    )


def job_sweep(jobs: Any = None) -> int:
    """Settle every job (of `jobs`, or all) that nobody will finish: fail those past their time
    limit; re-queue, once, those whose heartbeat is older than JOB_HEARTBEAT_STALE_SECONDS,
    and fail them the second time; fail a job queued again that no worker took up within
    JOB_TIME_LIMIT_SECONDS. The number of jobs changed.

    With a broker, only running jobs beat: a queued one waits in the broker, which keeps it.
    Without one, every job still active after its request is some web process's threads',
    queued or running, and goes back into this process's threads."""
    jobs = Job.objects.all() if jobs is None else jobs
    changed = job_fail_overdue(jobs)
    stale = jobs.filter(
        status__in=(Job.Status.RUNNING,) if broker_configured() else ACTIVE,
        heartbeat_at__lt=stale_before(),
    )
    changed += _finish(
        stale.filter(status=Job.Status.RUNNING, attempts__gte=MAX_ATTEMPTS),
        status=Job.Status.FAILED,
        error=STOPPED,
    )
    for job in stale.filter(attempts__lt=MAX_ATTEMPTS).only("pk", "key", "status", "attempts"):
        # Only if no other sweep, nor a heartbeat, came first.
        requeued = Job.objects.filter(
            pk=job.pk,
            status=job.status,
            attempts=job.attempts,
            heartbeat_at__lt=stale_before(),
        ).update(status=Job.Status.QUEUED, heartbeat_at=timezone.now(), done=0)
        if requeued:
            log.warning("job %s: its worker stopped; queued again", job.key)
            _start(job.key)
            changed += 1
    limit = timezone.now() - timedelta(seconds=settings.JOB_TIME_LIMIT_SECONDS)
    changed += _finish(
        # Its heartbeat_at is when it was queued again: a worker's queued job does not beat.
        jobs.filter(status=Job.Status.QUEUED, attempts__gte=1, heartbeat_at__lte=limit),
        status=Job.Status.FAILED,
        error=NOT_TAKEN,
    )
    return changed


def job_read(*, key: str, user: Any) -> Job | None:
    """The job with this key if `user` may read it (decks.selectors.job_for_reader), settled
    first (job_sweep) if nobody will finish it, so that nobody waits on it for ever."""
    job = job_for_reader(key=key, user=user)
    due = job is not None and job.status in ACTIVE and may_need_settling(job)
    if job is not None and due and job_sweep(Job.objects.filter(pk=job.pk)):
        job.refresh_from_db()
    return job


def job_purge_expired() -> int:
    """Settle the jobs nobody will finish (job_sweep), then delete expired jobs and their
    files; the number deleted."""
    job_sweep()
    expired = list(Job.objects.filter(expires_at__lte=timezone.now()))
    for job in expired:
        if job.result:
            job.result.delete(save=False)
    Job.objects.filter(pk__in=[job.pk for job in expired]).delete()
    return len(expired)
