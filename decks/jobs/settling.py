"""Settling the jobs nobody will finish (their time ran out, or their worker died), on a
read of their status, before a new job is asked for and by beat; and purging expired ones."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from decks.jobs.heartbeat import ACTIVE, may_need_settling, stale_before
from decks.jobs.running import MAX_ATTEMPTS, STOPPED, finish_jobs
from decks.jobs.starting import broker_configured, start_job
from decks.models import Job
from decks.reading.selectors import job_for_reader

log = logging.getLogger(__name__)

NOT_TAKEN = "The job was not finished: the worker running it stopped; no other worker took it up."


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
    return finish_jobs(
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
    changed += finish_jobs(
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
            start_job(job.key)
            changed += 1
    limit = timezone.now() - timedelta(seconds=settings.JOB_TIME_LIMIT_SECONDS)
    changed += finish_jobs(
        # Its heartbeat_at is when it was queued again: a worker's queued job does not beat.
        jobs.filter(status=Job.Status.QUEUED, attempts__gte=1, heartbeat_at__lte=limit),
        status=Job.Status.FAILED,
        error=NOT_TAKEN,
    )
    return changed


def job_read(*, key: str, user: Any) -> Job | None:
    """The job with this key if `user` may read it (decks.reading.selectors.job_for_reader), settled
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
