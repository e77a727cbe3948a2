"""Asking for a job: whether a print or a simulation should be one, and recording it within
each client's and the site's limits before it is started."""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, transaction
from django.utils import timezone

from cardsite.limits import LimitReached
from decks.exports.printing import SheetOrder, order_cards
from decks.jobs.heartbeat import ACTIVE
from decks.jobs.running import job_expiry, job_run
from decks.jobs.settling import job_purge_expired
from decks.jobs.starting import broker_configured, start_job
from decks.models import Job
from decks.proxies import pages_for
from decks.services import (
    ResolvedDeck,
    goldfish_check,
    goldfish_work,
)
from engines.errors import InputError

log = logging.getLogger(__name__)


def _wants_background(*, size: int, threshold: int, prefer_async: bool) -> bool:
    """Whether to answer with a job rather than the result: when the client asked for one
    (Prefer: respond-async), or when a broker exists and the work is large."""
    return prefer_async or (broker_configured() and size >= threshold)


def proxies_job(
    *,
    order: SheetOrder,
    owner: User | AnonymousUser | None,
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
    owner: User | AnonymousUser | None,
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


def job_submit(
    *,
    kind: Job.Kind,
    params: dict[str, Any],
    total: int,
    owner: User | AnonymousUser | None,
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
            expires_at=timezone.now() + job_expiry(),
            heartbeat_at=timezone.now(),
        )
    if broker_configured() or in_thread:
        start_job(job.key)
    else:
        job_run(key=job.key)
        job.refresh_from_db()
    return job


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


def _lock_for(client: str) -> None:
    """Hold, until the transaction ends, a lock on this client's jobs, so that two requests at
    once cannot both count one job too few. PostgreSQL only: SQLite lets one writer in at a
    time anyway."""
    if connection.vendor == "postgresql":
        key = int.from_bytes(hashlib.sha256(client.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
