"""A worker killed in the middle of a job: its heartbeat stops, and the job is run once more
by the next worker process and finishes; killed twice, it is failed saying its worker stopped;
with no worker left at all, it is failed once it has waited its time limit. It never stays
"running" for ever, nor holds its client's slot.

The workers beat every half second and the test's sweep (run by each read of the status URL)
calls a job silent for five seconds stale: the minute of production, in seconds.

A real Celery worker (prefork, as in production) runs in its own process group against the
machine's Redis (DB 8) and this run's test database, so it can be killed like a real one.
PostgreSQL only, like tests/decks/test_celery_worker.py: the worker is another process and
must see what the test committed."""

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from cardsite import celery
from cardsite.catalogue.models import Card, Game
from cardsite.celery import app, check_beat_has_workers
from decks.models import Job
from decks.services import Intake, RequestedCard, deck_create
from tests.redis_dbs import redis_url

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the worker is another process on the database"
)
BROKER = redis_url(8)
ROOT = Path(__file__).resolve().parents[2]
# Long enough to be caught half done on any machine; a few seconds each run.
# The most a request may ask for, of the slowest game to simulate (Fate Foretold, about
# 150,000 vectorised games a second): seconds of work, so a worker can be killed half-way.
RUNS = 1_000_000
WAIT = 240
BEAT, STALE = 0.5, 5.0
STOPPED = "The job was not finished: the worker running it stopped, twice."


@pytest.fixture(autouse=True)
def _stale_within_seconds(settings):
    settings.JOB_HEARTBEAT_SECONDS = BEAT
    settings.JOB_HEARTBEAT_STALE_SECONDS = STALE


def _send_to(broker, queue):
    app.conf.update(broker_url=broker, task_default_queue=queue)
    # Celery keeps its broker connections and its queue table from their first use, which may
    # have been another test's: start both afresh.
    app.close()
    app.__dict__.pop("amqp", None)


@pytest.fixture
def queue(django_db_setup, settings):
    """A queue of this test's own, on which the task of a job asked for here is sent."""
    name = f"cardsite-death-{uuid.uuid4().hex[:8]}"
    settings.CELERY_BROKER_URL = BROKER
    _send_to(BROKER, name)
    yield name
    _send_to(None, "celery")
    _forget(name)


def _forget(name):
    """Take this test's queue and any task of it left unacknowledged out of Redis."""
    broker = redis.Redis.from_url(BROKER)
    broker.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
    for tag, raw in broker.hscan_iter("unacked"):
        if json.loads(raw)[2] == name:
            broker.hdel("unacked", tag)
            broker.zrem("unacked_index", tag)


def start_worker(queue, media_root, *extra):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardsite.settings.test",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}",
        "CELERY_BROKER_URL": BROKER,
        "MEDIA_ROOT": str(media_root),
        "JOB_HEARTBEAT_SECONDS": str(BEAT),
        "JOB_HEARTBEAT_STALE_SECONDS": str(STALE),
    }
    command = [sys.executable, "-m", "celery", "-A", "cardsite", "worker", "--pool", "prefork"]
    command += ["--concurrency", "1", "--queues", queue, "--hostname", f"{queue}@localhost"]
    command += ["--without-mingle", "--without-gossip", "--loglevel", "WARNING", *extra]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pool_processes(worker):
    children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()
    return [int(pid) for pid in children]


@pytest.fixture
def workers(queue, settings):
    """Starts a worker on this test's queue each time it is called; all are stopped after."""
    started = []

    def start():
        started.append(start_worker(queue, settings.MEDIA_ROOT))
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


@pytest.fixture
def worker(workers):
    return workers()


def kill_main_process(worker):
    """SIGKILL to the worker's main process alone, as an operator's `kill -9` or the OOM
    killer would: its pool process dies with it (Celery's parent-death signal), and the task
    it held stays unacknowledged in Redis for the hour of the visibility timeout."""
    (child,) = pool_processes(worker)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait(timeout=30)
    wait_for(lambda: not Path(f"/proc/{child}").exists(), "the pool process to die too")


@pytest.fixture
def deck(django_db_setup, django_db_blocker):
    # Committed, so the worker sees it; removed afterwards with its jobs.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("death-owner", password="x-Long-pass-9")
        cards = Card.objects.filter(card_set__code="FF-SMP", card_type__name="Nest Card")
        made = deck_create(
            owner=owner,
            game=Game.objects.get(slug="fate-foretold"),
            format_slug="nest",
            name="Doomed fish",
            visibility="private",
            intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
        )
    yield owner, made
    with django_db_blocker.unblock():
        User.objects.filter(pk=owner.pk).delete()


def ask_for_a_long_simulation(owner, deck):
    client = APIClient()
    client.force_authenticate(owner)
    response = client.post(
        f"/api/v1/decks/{deck.share_key}/goldfish/",
        {"runs": RUNS, "seed": 3},
        format="json",
        HTTP_PREFER="respond-async",
    )
    assert response.status_code == 202, response.content
    return client, response.json()


def wait_for(condition, what):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting for {what}")


def half_done(key, attempt):
    return Job.objects.filter(key=key, status="running", attempts=attempt, done__gt=0).first()


def polled(client, record, until):
    """The job's status as its client sees it, polled (each read sweeps it) until `until`."""

    def status():
        found = client.get(record["url"]).json()
        return found if until(found) else None

    return wait_for(status, "the job's status to change")


def ended(status):
    return status["status"] in ("done", "failed")


def test_a_job_whose_worker_process_is_killed_runs_again_and_finishes(
    worker, deck, django_db_blocker
):
    owner, made = deck
    with django_db_blocker.unblock():
        client, record = ask_for_a_long_simulation(owner, made)
        wait_for(lambda: half_done(record["id"], 1), "the job to be half done")
        (process,) = pool_processes(worker)
        os.kill(process, signal.SIGKILL)

        # The task comes back at once, while the job's heartbeat is fresh, and is left to the
        # run that may still hold it; once the heartbeat is stale, the sweep sends it again.
        polled(client, record, ended)
        job = Job.objects.get(key=record["id"])
        assert (job.status, job.attempts, job.done) == ("done", 2, RUNS), job.error
        result = client.get(f"/api/v1/jobs/{job.key}/result")
        assert json.loads(b"".join(result.streaming_content))["runs"] == RUNS


def test_a_job_whose_worker_main_process_is_killed_runs_again_on_the_next_worker(
    workers, deck, django_db_blocker
):
    owner, made = deck
    first = workers()
    with django_db_blocker.unblock():
        client, record = ask_for_a_long_simulation(owner, made)
        wait_for(lambda: half_done(record["id"], 1), "the job to be half done")
        kill_main_process(first)

        workers()
        status = polled(client, record, ended)
        job = Job.objects.get(key=record["id"])
        assert (status["status"], job.attempts, job.done) == ("done", 2, RUNS), job.error
        result = client.get(f"/api/v1/jobs/{job.key}/result")
        assert json.loads(b"".join(result.streaming_content))["runs"] == RUNS


def test_a_job_whose_worker_is_killed_twice_fails_saying_so_and_frees_its_slot(
    workers, deck, django_db_blocker
):
    owner, made = deck
    first = workers()
    with django_db_blocker.unblock():
        client, record = ask_for_a_long_simulation(owner, made)
        wait_for(lambda: half_done(record["id"], 1), "the job to be half done")
        kill_main_process(first)

        second = workers()
        polled(
            client,
            record,
            lambda status: status["status"] == "running" and half_done(record["id"], 2),
        )
        kill_main_process(second)

        status = polled(client, record, ended)
        assert (status["status"], status["error"]) == ("failed", STOPPED)
        assert Job.objects.get(key=record["id"]).attempts == 2
        # Its slot is free: the client may have two jobs again.
        _, other = ask_for_a_long_simulation(owner, made)
        _, another = ask_for_a_long_simulation(owner, made)
        assert other["status"] == another["status"] == "queued"


def test_a_job_whose_whole_worker_is_killed_is_queued_again_then_failed_past_its_time_limit(
    worker, deck, django_db_blocker, settings
):
    owner, made = deck
    with django_db_blocker.unblock():
        client, record = ask_for_a_long_simulation(owner, made)
        wait_for(lambda: half_done(record["id"], 1), "the job to be half done")
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)

        # No worker is left to take it up: it waits in the broker, queued.
        polled(client, record, lambda status: status["status"] == "queued")
        settings.JOB_TIME_LIMIT_SECONDS = 1
        time.sleep(1.5)
        status = client.get(record["url"]).json()
        assert status["status"] == "failed"
        assert status["error"] == (
            "The job was not finished: the worker running it stopped; no other worker took it up."
        )


def gone(pid):
    """Whether a process has ended: no longer there, or a zombie nobody has reaped yet."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_beat_inside_a_worker_whose_main_process_is_killed_stops_rather_than_orphaned(
    queue, settings, tmp_path
):
    schedule = str(tmp_path / "celerybeat-schedule")
    worker = start_worker(queue, settings.MEDIA_ROOT, "--beat", "--schedule", schedule)
    try:
        beats = wait_for(lambda: celery.alive("beat"), "the beat to say it is alive")
        wait_for(lambda: celery.alive("worker"), "the worker to say it is alive")
        # Both seen: nothing to report (another test's worker may still be remembered).
        assert "cardsite.W001" not in [m.id for m in check_beat_has_workers()]
        (beat,) = [b for b in beats if b["embedded_in"] == worker.pid]

        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
        # Its parent gone, the beat stops (at its next tick at the latest: with Celery 5.7 it
        # went as soon, without cardsite's scheduler) and schedules nothing more.
        wait_for(lambda: gone(beat["pid"]), "the orphaned beat to stop")
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        # What the beat sent went to Celery's default queue, which no test's worker reads.
        redis.Redis.from_url(BROKER).delete("celery")
