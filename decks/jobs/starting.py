"""Handing a queued job to whoever runs it: a Celery worker through the broker when one is
configured, else this web process's small pool of job threads."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from celery import current_app
from django.conf import settings
from django.db import connection, transaction

from decks.jobs.heartbeat import ACTIVE, HEARTBEAT
from decks.jobs.running import finish_jobs, job_run
from decks.models import Job

log = logging.getLogger(__name__)

RUN_JOB = "decks.tasks.run_job"  # the Celery task that runs a job


def broker_configured() -> bool:
    return bool(settings.CELERY_BROKER_URL)


_THREADS: ThreadPoolExecutor | None = None
_THREADS_LOCK = threading.Lock()


def start_job(key: str) -> None:
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


def _run_in_thread(key: str) -> None:
    """Run a job in a job thread, which then gives back its own database connection."""
    try:
        job_run(key=key)
    except Exception:
        # job_run fails the job itself for any error of the work; this is the database
        # failing under it. Say so on the job if the database lets us, so nobody waits on it.
        log.exception("job %s failed in its thread", key)
        try:
            finish_jobs(
                Job.objects.filter(key=key, status__in=ACTIVE),
                status=Job.Status.FAILED,
                error="The job failed unexpectedly.",
            )
        except Exception:
            log.exception("job %s could not be marked failed", key)
    finally:
        HEARTBEAT.release(key)
        connection.close()
