"""Beat and workers say in the broker that they are alive, and `manage.py check` reports a beat
that no worker serves (an orphan: its worker was killed, or none was started) and more than
one beat. The records are written here as beat and a worker write them; DB 7 of the machine's
Redis is the broker (tests/redis_dbs.py), and its records are cleared around each test."""

import io
import json
import os
import time

import pytest
import redis
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from cardsite import celery
from cardsite.celery import LivenessScheduler, check_beat_has_workers, record_alive
from tests.redis_dbs import redis_url

BROKER = redis_url(7)


@pytest.fixture
def broker(settings):
    settings.CELERY_BROKER_URL = BROKER
    client = redis.Redis.from_url(BROKER)

    def clear():
        for key in client.scan_iter("cardsite:celery:*"):
            client.delete(key)

    clear()
    yield client
    clear()


def another(role, pid, host="elsewhere", **extra):
    """A record as another process writes it."""
    record = {"host": host, "pid": pid, "at": time.time(), **extra}
    redis.Redis.from_url(BROKER).set(
        f"cardsite:celery:alive:{role}:{host}:{pid}", json.dumps(record), ex=60
    )


def ids():
    return [message.id for message in check_beat_has_workers()]


def test_without_a_broker_nothing_is_looked_for(settings):
    settings.CELERY_BROKER_URL = ""
    assert check_beat_has_workers() == []


def test_a_beat_with_a_live_worker_is_well(broker):
    record_alive("beat")
    record_alive("worker")
    assert ids() == []


def test_a_beat_whose_worker_was_never_seen_is_reported(broker):
    another("beat", 4242)
    (message,) = check_beat_has_workers()
    assert message.id == "cardsite.W001"
    assert "beat is running (pid 4242 on elsewhere)" in message.msg
    assert "no worker has been seen since records began" in message.msg


def test_a_beat_whose_worker_went_silent_is_reported_with_how_long_ago(broker):
    another("beat", 4242)
    broker.set("cardsite:celery:worker-last-seen", str(time.time() - 300))
    (message,) = check_beat_has_workers()
    assert message.id == "cardsite.W001"
    assert "no worker has been seen for 30" in message.msg


def test_more_than_one_beat_is_reported(broker):
    another("beat", 1)
    another("beat", 2, host="there")
    record_alive("worker")
    (message,) = check_beat_has_workers()
    assert message.id == "cardsite.W002"
    assert "(pid 1 on elsewhere, pid 2 on there)" in message.msg


def test_manage_py_check_reports_an_orphaned_beat(broker):
    another("beat", 4242)
    err = io.StringIO()
    call_command("check", "--tag", "celery", stderr=err, stdout=io.StringIO())
    assert "cardsite.W001" in err.getvalue()
    with pytest.raises(SystemCheckError):
        call_command("check", "--fail-level", "WARNING", stderr=err, stdout=io.StringIO())


def test_an_unreachable_broker_is_a_warning_not_a_crash(settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    assert ids() == ["cardsite.W003"]


def test_beat_says_it_is_alive_as_it_ticks(broker, tmp_path):
    scheduler = LivenessScheduler(app=celery.app, schedule_filename=str(tmp_path / "schedule"))
    scheduler.tick()
    (record,) = celery.alive("beat")
    assert (record["pid"], record["embedded_in"]) == (os.getpid(), None)


def test_a_beat_whose_worker_was_killed_under_it_stops_at_its_next_tick(
    broker, tmp_path, monkeypatch
):
    # Started inside a worker that is no longer its parent.
    monkeypatch.setattr(celery, "_EMBEDDED_IN", os.getppid() + 1_000_000)
    scheduler = LivenessScheduler(app=celery.app, schedule_filename=str(tmp_path / "schedule"))
    with pytest.raises(SystemExit):
        scheduler.tick()
    assert celery.alive("beat") == []
