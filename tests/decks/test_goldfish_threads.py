"""Without a broker, a goldfish page's long simulation runs in a job thread of the web process:
the page goes to the job, which shows progress and then the charts; short ones stay inline.

The data is committed (no test transaction), as the job thread reads it on its own connection.
"""

import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.test import Client
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from decks.jobs import running as jobs
from decks.models import Job
from decks.services import Intake, RequestedCard, deck_create
from engines import get_engine

USERNAME = "threaded-goldfish"


@pytest.fixture
def deck(django_db_setup, django_db_blocker, settings):
    settings.CELERY_BROKER_URL = ""
    with django_db_blocker.unblock():
        User.objects.filter(username=USERNAME).delete()
        owner = User.objects.create_user(USERNAME, password="x-Long-pass-9")
        cards = Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans")
        made = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Threaded",
            visibility="public",
            intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
        )
    yield made
    with django_db_blocker.unblock():
        for job in Job.objects.filter(params__deck=made.share_key):
            if job.result:
                job.result.delete(save=False)
        Job.objects.filter(params__deck=made.share_key).delete()
        User.objects.filter(pk=owner.pk).delete()


def read(fetch, attempts=50):
    """A read that may meet SQLite's lock while the job thread writes: tried again."""
    for attempt in range(attempts):
        try:
            return fetch()
        except OperationalError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05)
    return None


def wait_for(job_key, seen=None, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = read(lambda: Job.objects.get(key=job_key))
        if seen is not None:
            seen.append(job.done)
        if job.finished:
            return job
        time.sleep(0.02)
    raise AssertionError(f"job {job_key} did not finish in {seconds} s")


def test_a_short_simulation_is_answered_inline(deck, django_db_blocker):
    with django_db_blocker.unblock():
        response = Client().get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 200})
        assert response.status_code == 200 and response.context["charts"]
        assert not Job.objects.filter(params__deck=deck.share_key).exists()


def test_a_long_simulation_runs_in_a_thread_and_its_results_show_the_charts(
    deck, django_db_blocker, settings
):
    # Past a second by the estimate: each game weighs its engine's goldfish_cost.
    cost = get_engine("conquest-of-orion").goldfish_cost
    runs = int(settings.GOLDFISH_WORK_PER_SECOND * settings.GOLDFISH_INLINE_SECONDS / cost) + 100
    with django_db_blocker.unblock():
        client = Client()
        response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": runs})
        assert response.status_code == 302 and response["Location"].startswith("/jobs/")
        key = response["Location"].split("/")[2]
        job = wait_for(key)
        assert (job.status, job.error, job.done, job.total) == ("done", "", runs, runs)
        status = read(lambda: client.get(response["Location"]).content.decode())
        assert "See the results" in status and "http-equiv" not in status
        shown = read(lambda: client.get(f"/decks/{deck.share_key}/goldfish/", {"job": key}))
        assert shown.status_code == 200 and shown.context["runs"] == runs
        assert shown.context["charts"] and shown.context["summary"].rows
        assert '<table class="summary-table"' in shown.content.decode()


def test_a_running_jobs_progress_advances_between_polls(
    deck, django_db_blocker, settings, monkeypatch
):
    settings.GOLDFISH_INLINE_SECONDS = 0
    # Every step of progress is written, so that polls see it move.
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL", 0)
    # Several of the engine's batches, each of which reports its progress.
    runs = 200_000
    with django_db_blocker.unblock():
        client = Client()
        response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 2, "runs": runs})
        key = response["Location"].split("/")[2]
        running = read(lambda: client.get(response["Location"]).content.decode())
        assert '<meta http-equiv="refresh"' in running and "<progress" in running
        seen: list[int] = []
        job = wait_for(key, seen)
    assert job.status == "done"
    between = [n for n in seen if 0 < n < runs]
    assert between, f"no progress seen between 0 and {runs}: {sorted(set(seen))}"
    assert seen == sorted(seen), "progress went backwards"


def test_the_site_refuses_a_threaded_job_past_its_limit_with_a_429(
    deck, django_db_blocker, settings
):
    settings.GOLDFISH_INLINE_SECONDS = 0
    settings.JOB_THREAD_MAX_ACTIVE = 0
    with django_db_blocker.unblock():
        refused = Client().get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 10})
        assert refused.status_code == 429
        assert "the limit is 0 queued or running at once" in refused.content.decode()
        assert not Job.objects.filter(params__deck=deck.share_key).exists()


def test_a_job_thread_writes_its_jobs_heartbeat_while_the_work_writes_nothing(
    deck, django_db_blocker, settings
):
    settings.JOB_HEARTBEAT_SECONDS = 0.01
    with django_db_blocker.unblock():
        silent = timezone.now() - timedelta(hours=1)
        job = Job.objects.create(
            kind=Job.Kind.GOLDFISH,
            params={"deck": deck.share_key},
            total=1,
            status=Job.Status.RUNNING,
            heartbeat_at=silent,
            expires_at=timezone.now() + timedelta(hours=1),
        )
        jobs.HEARTBEAT.hold(job.key)
        try:
            deadline = time.monotonic() + 60
            while read(lambda: Job.objects.get(pk=job.pk).heartbeat_at) == silent:
                assert time.monotonic() < deadline, "no heartbeat written"
                time.sleep(0.02)
        finally:
            jobs.HEARTBEAT.release(job.key)


def test_a_thread_job_of_a_web_process_that_died_runs_again_in_this_ones_threads(
    deck, django_db_blocker, settings
):
    settings.GOLDFISH_INLINE_SECONDS = 0
    with django_db_blocker.unblock():
        client = Client()
        response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 4, "runs": 500})
        key = response["Location"].split("/")[2]
        assert wait_for(key).status == "done"
        # As the process that ran it left it when it died, heartbeat and all, half done.
        silent = timezone.now() - timedelta(seconds=settings.JOB_HEARTBEAT_STALE_SECONDS + 1)
        Job.objects.filter(key=key).update(
            status="running", attempts=1, done=200, heartbeat_at=silent, result=""
        )
        page = read(lambda: client.get(response["Location"]).content.decode())
        assert '<meta http-equiv="refresh"' in page
        job = wait_for(key)
        assert (job.status, job.attempts, job.done, job.error) == ("done", 2, 500, "")
