"""Celery tasks; they only hand over to decks.jobs, which holds the work and its state."""

from celery import shared_task

from cardsite.catalogue.live_games import catch_up
from decks.jobs import RUN_JOB, job_purge_expired, job_run, job_sweep
from decks.services import decks_purge


@shared_task(name=RUN_JOB)
def run_job(key: str) -> None:
    # A worker serves the games loaded since it started, as a web process does.
    catch_up()
    job_run(key=key)


@shared_task(name="decks.tasks.sweep_jobs")
def sweep_jobs() -> int:
    return job_sweep()


@shared_task(name="decks.tasks.purge_expired_jobs")
def purge_expired_jobs() -> int:
    return job_purge_expired()


@shared_task(name="decks.tasks.purge_deleted_decks")
def purge_deleted_decks() -> int:
    return decks_purge()
