"""Background jobs are bounded: at most JOB_MAX_ACTIVE_PER_CLIENT (2) queued or running per
client, a job past its time limit is failed, a job whose worker died runs once more and then
fails, and nobody reads a job's file except through the owner-checked result views."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from decks.jobs import job_run
from decks.models import Job
from tests.hostile.conftest import capital_deck
from tests.redis_dbs import redis_url

pytestmark = pytest.mark.django_db
# Jobs are sent to the broker only when the request's transaction commits, which a test's
# never does: with a broker named, every job asked for here stays queued.
BROKER = redis_url(7)
ASYNC = {"HTTP_PREFER": "respond-async"}


@pytest.fixture
def queued_jobs(settings):
    settings.CELERY_BROKER_URL = BROKER
    settings.JOB_PROXY_CARDS = 10


def signed_in(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_third_job_at_once_is_refused_with_a_429_naming_the_limit(owner, queued_jobs):
    client = signed_in(owner)
    url = f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf"
    assert [client.get(url).status_code for _ in range(2)] == [202, 202]
    refused = client.get(url)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_jobs"
    assert "the limit is 2 queued or running at once per client" in refused.json()["detail"]
    assert Job.objects.count() == 2


def test_the_limit_counts_jobs_of_every_kind_together(owner, queued_jobs):
    client = signed_in(owner)
    deck = capital_deck(owner)
    assert client.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf").status_code == 202
    goldfish = f"/api/v1/decks/{deck.share_key}/goldfish/"
    assert client.post(goldfish, {"runs": 10}, format="json", **ASYNC).status_code == 202
    assert client.post(goldfish, {"runs": 10}, format="json", **ASYNC).status_code == 429
    assert Job.objects.count() == 2


def test_anonymous_clients_are_limited_by_address(queued_jobs):
    card = Card.objects.filter(card_set__code="CFC-SMP").first()
    body = {"game": "conquest-for-the-capital", "format": "faction-deck", "text": f"1 {card.name}"}
    here, there = APIClient(), APIClient(REMOTE_ADDR="198.51.100.7")
    for _ in range(2):
        assert here.post("/api/v1/goldfish/", body, format="json", **ASYNC).status_code == 202
    assert here.post("/api/v1/goldfish/", body, format="json", **ASYNC).status_code == 429
    assert there.post("/api/v1/goldfish/", body, format="json", **ASYNC).status_code == 202
    assert Job.objects.count() == 3
    # What is stored is who asked, keyed; never an address.
    assert not Job.objects.filter(client__contains="127.0.0.1").exists()


def test_the_proxy_page_refuses_a_third_job_with_an_html_429(owner, queued_jobs):
    client = Client()
    client.force_login(owner)
    url = f"/decks/{capital_deck(owner).share_key}/proxies.pdf"
    assert [client.get(url).status_code for _ in range(2)] == [302, 302]
    refused = client.get(url)
    assert refused.status_code == 429
    assert "the limit is 2 queued or running at once per client" in refused.content.decode()
    assert Job.objects.count() == 2


def test_the_goldfish_page_refuses_a_third_job_too(owner, queued_jobs, settings):
    settings.JOB_GOLDFISH_RUNS = 100
    client = Client()
    url = f"/decks/{capital_deck(owner).share_key}/goldfish/"
    # 2,000 Capital games weigh 240 (goldfish_cost 0.12): past the 100 set above.
    for _ in range(2):
        assert client.get(url, {"seed": 1, "runs": 2000}).status_code == 302
    refused = client.get(url, {"seed": 1, "runs": 2000})
    assert refused.status_code == 429
    assert "Too many background jobs" in refused.content.decode()
    assert Job.objects.count() == 2


def test_finished_jobs_do_not_count(owner, queued_jobs):
    client = signed_in(owner)
    url = f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf"
    first, _ = client.get(url).json(), client.get(url)
    job_run(key=first["id"])
    assert Job.objects.get(key=first["id"]).status == "done"
    assert client.get(url).status_code == 202


def test_a_job_running_past_its_time_limit_is_failed_when_read_and_no_longer_counts(
    owner, queued_jobs, settings
):
    client = signed_in(owner)
    url = f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf"
    stuck, other = client.get(url).json(), client.get(url).json()
    long_ago = timezone.now() - timedelta(seconds=settings.JOB_TIME_LIMIT_SECONDS + 1)
    Job.objects.filter(key=stuck["id"]).update(status="running", started_at=long_ago)
    Job.objects.filter(key=other["id"]).update(status="running", started_at=timezone.now())

    record = client.get(stuck["url"]).json()
    assert record["status"] == "failed"
    assert record["error"] == (
        f"The job ran past its time limit of {settings.JOB_TIME_LIMIT_SECONDS} seconds"
        " and was stopped."
    )
    assert client.get(other["url"]).json()["status"] == "running"
    page = Client()
    page.force_login(owner)
    assert "ran past its time limit" in page.get(f"/jobs/{stuck['id']}/").content.decode()
    assert client.get(url).status_code == 202


def test_the_purge_fails_jobs_past_their_time_limit(owner, queued_jobs, settings):
    from decks.jobs import job_purge_expired

    job = Job.objects.create(
        kind=Job.Kind.PROXIES,
        params={},
        total=1,
        status=Job.Status.RUNNING,
        started_at=timezone.now() - timedelta(seconds=settings.JOB_TIME_LIMIT_SECONDS + 1),
        expires_at=timezone.now() + timedelta(hours=1),
    )
    job_purge_expired()
    job.refresh_from_db()
    assert job.status == "failed" and "time limit" in job.error


def test_a_job_left_running_by_a_dead_worker_runs_once_more_then_fails(
    owner, queued_jobs, settings
):
    client = signed_in(owner)
    url = f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf"
    record = client.get(url).json()
    # The first worker claimed it and died, its heartbeat with it: the task comes back.
    silent = timezone.now() - timedelta(seconds=settings.JOB_HEARTBEAT_STALE_SECONDS + 1)
    Job.objects.filter(key=record["id"]).update(status="running", attempts=1, heartbeat_at=silent)
    job_run(key=record["id"])
    job = Job.objects.get(key=record["id"])
    assert (job.status, job.attempts, job.done) == ("done", 2, job.total)

    again = client.get(url).json()
    Job.objects.filter(key=again["id"]).update(status="running", attempts=2, heartbeat_at=silent)
    job_run(key=again["id"])
    job = Job.objects.get(key=again["id"])
    assert job.status == "failed"
    assert job.error == "The job was not finished: the worker running it stopped, twice."
    assert not job.result


def test_a_task_delivered_again_while_its_job_still_beats_is_left_to_the_live_run(
    owner, queued_jobs
):
    client = signed_in(owner)
    record = client.get(f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf").json()
    for attempts in (1, 2):
        Job.objects.filter(key=record["id"]).update(
            status="running", attempts=attempts, heartbeat_at=timezone.now()
        )
        job_run(key=record["id"])
        job = Job.objects.get(key=record["id"])
        assert (job.status, job.attempts, job.error) == ("running", attempts, "")


def test_a_finished_job_delivered_again_is_left_as_it_is(owner, queued_jobs):
    client = signed_in(owner)
    record = client.get(f"/api/v1/decks/{capital_deck(owner).share_key}/proxies.pdf").json()
    job_run(key=record["id"])
    done = Job.objects.get(key=record["id"])
    job_run(key=record["id"])
    again = Job.objects.get(key=record["id"])
    assert (again.status, again.attempts, again.finished_at, again.result.name) == (
        "done",
        1,
        done.finished_at,
        done.result.name,
    )


# --- job files -------------------------------------------------------------------------------


@pytest.fixture
def private_job_file(owner, settings):
    client = signed_in(owner)
    deck = capital_deck(owner, visibility="private")
    record = client.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", **ASYNC).json()
    job = Job.objects.get(key=record["id"])
    assert job.result.name == f"jobs/{job.key}.pdf"
    return job


@pytest.mark.parametrize(
    "path",
    [
        "/media/jobs/{key}.pdf",
        "/media/faces/../jobs/{key}.pdf",
        "/media/./jobs/{key}.pdf",
        "/media//jobs/{key}.pdf",
        "/media/jobs/",
    ],
)
def test_no_job_file_is_served_from_media_even_with_debug_on(private_job_file, settings, path):
    settings.DEBUG = True
    stranger = Client()
    stranger.force_login(User.objects.create_user("peeker", password="x-Long-pass-9"))
    for client in (Client(), stranger):
        assert client.get(path.format(key=private_job_file.key)).status_code == 404


def test_with_debug_on_other_media_is_still_served_and_with_it_off_none_is(settings):
    faces = settings.MEDIA_ROOT / "faces"
    faces.mkdir(parents=True)
    (faces / "face.png").write_bytes(b"\x89PNG fake")
    settings.DEBUG = True
    served = Client().get("/media/faces/face.png")
    assert served.status_code == 200 and b"".join(served.streaming_content) == b"\x89PNG fake"
    settings.DEBUG = False
    assert Client().get("/media/faces/face.png").status_code == 404


def test_the_owner_still_gets_the_file_through_the_result_view(private_job_file, owner):
    client = signed_in(owner)
    response = client.get(f"/api/v1/jobs/{private_job_file.key}/result")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
