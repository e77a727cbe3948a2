"""A job whose worker died is found by its silent heartbeat (decks.jobs.job_sweep): run once
more, then failed saying so; never left holding its client's slot until its time limit.

The workers here are the rows they leave behind: a job "running" whose heartbeat_at is older
than JOB_HEARTBEAT_STALE_SECONDS. With a broker named, a job re-queued inside a test's
transaction (never committed) is not sent, so it stays queued for the test to run by hand;
tests/hostile/test_worker_death.py kills real workers."""

from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from decks.jobs import job_run, job_sweep
from decks.models import Job
from decks.tasks import sweep_jobs
from tests.decks.test_jobs import capital_deck
from tests.redis_dbs import redis_url

pytestmark = pytest.mark.django_db
BROKER = redis_url(15)
STOPPED = "The job was not finished: the worker running it stopped, twice."


@pytest.fixture
def owner():
    return User.objects.create_user("sweeper", password="x-Long-pass-9")


@pytest.fixture
def client(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def broker(settings):
    settings.CELERY_BROKER_URL = BROKER
    settings.JOB_PROXY_CARDS = 10


def silent_for(seconds):
    return timezone.now() - timedelta(seconds=seconds)


def stale():
    return silent_for(django_settings.JOB_HEARTBEAT_STALE_SECONDS + 1)


def ask(client, owner):
    return client.get(f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf").json()


def left_running(key, attempts, heartbeat_at, started_at=None):
    Job.objects.filter(key=key).update(
        status="running",
        attempts=attempts,
        heartbeat_at=heartbeat_at,
        started_at=started_at or heartbeat_at,
        done=1,
    )


def test_a_job_whose_heartbeat_stopped_is_queued_again_when_its_status_is_read(
    broker, owner, client
):
    record = ask(client, owner)
    left_running(record["id"], 1, stale())
    status = client.get(record["url"]).json()
    assert (status["status"], status["done"], status["error"]) == ("queued", 0, None)
    # The task sent again is taken by a live worker, which finishes the job.
    job_run(key=record["id"])
    job = Job.objects.get(key=record["id"])
    assert (job.status, job.attempts, job.done) == ("done", 2, job.total)


def test_the_second_time_its_worker_stops_the_job_is_failed_saying_so_and_its_slot_frees(
    broker, owner, client
):
    first, second = ask(client, owner), ask(client, owner)
    deck = capital_deck(owner)
    assert client.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf").status_code == 429
    left_running(first["id"], 2, stale())
    left_running(second["id"], 2, stale())

    status = client.get(first["url"]).json()
    assert (status["status"], status["error"]) == ("failed", STOPPED)
    # Asking for another job settles the client's other one too.
    assert client.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf").status_code == 202
    assert Job.objects.get(key=second["id"]).error == STOPPED


def test_a_job_whose_heartbeat_is_live_is_left_running(broker, owner, client):
    record = ask(client, owner)
    left_running(record["id"], 1, silent_for(django_settings.JOB_HEARTBEAT_STALE_SECONDS / 2))
    assert client.get(record["url"]).json()["status"] == "running"
    assert job_sweep() == 0


def test_reading_a_live_jobs_status_writes_nothing(broker, owner, client):
    # A write would take SQLite's write lock beside the job's own progress writes: polling a
    # running job's page got a 503 when the two met.
    record = ask(client, owner)
    left_running(record["id"], 1, silent_for(django_settings.JOB_HEARTBEAT_STALE_SECONDS / 2))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(record["url"]).json()["status"] == "running"
    writes = [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
    ]
    assert writes == []


def test_a_job_past_its_time_limit_whose_worker_died_early_is_run_again_not_failed_for_time(
    broker, owner, client, settings
):
    record = ask(client, owner)
    long_ago = silent_for(settings.JOB_TIME_LIMIT_SECONDS + 5)
    # Its last heartbeat came seconds after it started: the worker died, the job did not
    # run long.
    left_running(record["id"], 1, long_ago + timedelta(seconds=5), started_at=long_ago)
    status = client.get(record["url"]).json()
    assert (status["status"], status["error"]) == ("queued", None)


def test_a_job_that_beat_until_its_time_limit_is_failed_for_its_time(broker, owner, client):
    limit = django_settings.JOB_TIME_LIMIT_SECONDS
    record = ask(client, owner)
    started = silent_for(limit + 120)
    # Celery's hard time limit stopped it, heartbeat and all, as its time ran out.
    left_running(record["id"], 1, started + timedelta(seconds=limit - 5), started_at=started)
    status = client.get(record["url"]).json()
    assert status["status"] == "failed"
    assert status["error"] == f"The job ran past its time limit of {limit} seconds and was stopped."


def test_a_job_queued_again_that_no_worker_takes_up_is_failed_past_its_time_limit(
    broker, owner, client, settings
):
    record = ask(client, owner)
    left_running(record["id"], 1, stale())
    assert client.get(record["url"]).json()["status"] == "queued"
    # Queued again as long ago as a job may run.
    Job.objects.filter(key=record["id"]).update(
        heartbeat_at=silent_for(settings.JOB_TIME_LIMIT_SECONDS + 1)
    )
    status = client.get(record["url"]).json()
    assert status["status"] == "failed"
    assert status["error"] == (
        "The job was not finished: the worker running it stopped; no other worker took it up."
    )


def test_with_a_broker_a_queued_job_waits_in_the_broker_however_old_its_heartbeat(
    broker, owner, client
):
    record = ask(client, owner)
    Job.objects.filter(key=record["id"]).update(heartbeat_at=stale())
    assert client.get(record["url"]).json()["status"] == "queued"
    assert Job.objects.get(key=record["id"]).heartbeat_at < silent_for(1)


def test_beat_sweeps_every_half_minute_without_anyone_polling(broker, owner, client):
    assert django_settings.CELERY_BEAT_SCHEDULE["sweep-jobs"] == {
        "task": "decks.tasks.sweep_jobs",
        "schedule": 30.0,
    }
    record = ask(client, owner)
    left_running(record["id"], 2, stale())
    assert sweep_jobs() == 1
    assert Job.objects.get(key=record["id"]).error == STOPPED


# --- without a broker: the web process's job threads -----------------------------------------


def thread_job(status, attempts, heartbeat_at):
    return Job.objects.create(
        kind=Job.Kind.GOLDFISH,
        params={},
        total=10,
        client="thread-test",
        status=status,
        attempts=attempts,
        started_at=heartbeat_at if attempts else None,
        heartbeat_at=heartbeat_at,
        expires_at=timezone.now() + timedelta(hours=1),
    )


def test_without_a_broker_a_dead_web_processs_queued_and_running_jobs_are_queued_again(
    settings,
):
    settings.CELERY_BROKER_URL = ""
    waiting, running = thread_job("queued", 0, stale()), thread_job("running", 1, stale())
    # Inside the test's transaction nothing is handed to the threads (that waits for the
    # commit): tests/decks/test_goldfish_threads.py sees such a job run to its end.
    assert job_sweep() == 2
    for job in (waiting, running):
        job.refresh_from_db()
        assert (job.status, job.error) == ("queued", "")
        assert job.heartbeat_at > silent_for(django_settings.JOB_HEARTBEAT_STALE_SECONDS)


def test_without_a_broker_a_thread_job_whose_process_died_twice_is_failed(settings):
    settings.CELERY_BROKER_URL = ""
    job = thread_job("running", 2, stale())
    live = thread_job("running", 1, timezone.now())
    assert job_sweep() == 1
    job.refresh_from_db()
    live.refresh_from_db()
    assert (job.status, job.error) == ("failed", STOPPED)
    assert (live.status, live.error) == ("running", "")
