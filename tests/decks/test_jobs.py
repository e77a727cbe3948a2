"""Background jobs: big proxy sheets and long simulations, with a status URL and a result
that expires. Without a broker (the default) a job runs inline; with one it waits for a
worker (tests/decks/test_celery_worker.py runs a real one)."""

import io
import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from pypdf import PdfReader
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from decks.exports.printing import list_order
from decks.jobs import Progress, job_purge_expired, job_run, job_submit
from decks.models import Job
from decks.proxies import SheetOptions
from decks.services import Intake, RequestedCard, deck_create
from engines import get_engine
from tests.redis_dbs import redis_url

pytestmark = pytest.mark.django_db
ASYNC = {"HTTP_PREFER": "respond-async"}
BROKER = redis_url(15)


@pytest.fixture
def owner():
    return User.objects.create_user("jobber", password="x-Long-pass-9")


@pytest.fixture
def signed_in(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def capital_deck(owner, visibility="public", copies=1):
    """Conquest for the Capital's Dwarves: 20 cards, or `copies` times as many."""
    dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-for-the-capital"),
        format_slug="faction-deck",
        name="Dwarf hold",
        visibility=visibility,
        intake=Intake(tuple([RequestedCard(copies, None, c.short_id) for c in dwarves])),
    )


def fates_deck(owner, visibility="public"):
    cards = Card.objects.filter(card_set__code="COF-SMP", factions__name="Iron Tithe of Vantrix")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-fates"),
        format_slug="standard",
        name="Fish",
        visibility=visibility,
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


# --- asking for a job -----------------------------------------------------------------------


def test_a_client_that_prefers_to_poll_gets_a_job_and_then_its_pdf(owner, signed_in):
    deck = capital_deck(owner)
    response = signed_in.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", **ASYNC)
    assert response.status_code == 202, response.content
    job = response.json()
    assert response["Location"] == job["url"]
    assert job["kind"] == "proxies"
    # No broker: the job ran inline, so it is finished when the 202 arrives.
    assert (job["status"], job["done"], job["total"], job["progress"]) == ("done", 3, 3, 1.0)

    status = signed_in.get(job["url"]).json()
    assert status["result_url"] == job["result_url"]
    pdf = signed_in.get(job["result_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    content = b"".join(pdf.streaming_content)
    # A calibration page, then 20 cards at nine a page.
    assert len(PdfReader(io.BytesIO(content)).pages) == 1 + 3


def test_a_posted_card_list_can_be_printed_by_a_job_too():
    cards = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort")[:4]
    body = {
        "game": "conquest-of-orion",
        "format": "constructed",
        "cards": [{"id": c.short_id, "quantity": 3} for c in cards],
    }
    client = APIClient()
    response = client.post("/api/v1/proxies.pdf", body, format="json", **ASYNC)
    assert response.status_code == 202, response.content
    assert response.json()["total"] == 2
    assert client.get(response.json()["result_url"])["Content-Type"] == "application/pdf"


def test_a_simulation_run_as_a_job_gives_the_same_answer_as_inline(owner):
    deck = fates_deck(owner)
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    body = {"runs": 2000, "seed": 5, "policy": {"mulligan_below_units": 4}}
    client = APIClient()
    inline = client.post(url, body, format="json")
    assert inline.status_code == 200
    queued = client.post(url, body, format="json", **ASYNC)
    assert queued.status_code == 202
    assert queued.json()["total"] == 2000 and queued.json()["done"] == 2000
    result = client.get(queued.json()["result_url"])
    assert result["Content-Type"] == "application/json"
    assert json.loads(b"".join(result.streaming_content)) == inline.json()


def test_a_bad_simulation_is_refused_at_once_not_queued(owner):
    deck = fates_deck(owner)
    response = APIClient().post(
        f"/api/v1/decks/{deck.share_key}/goldfish/",
        {"runs": 500_000, "policy": {"bluff": 1}},
        format="json",
        **ASYNC,
    )
    assert response.status_code == 400
    assert "policy.bluff" in response.json()["errors"]
    assert not Job.objects.exists()


def test_without_a_broker_a_large_deck_still_prints_inline(owner, settings):
    settings.JOB_PROXY_CARDS = 10
    deck = capital_deck(owner)
    response = APIClient().get(f"/api/v1/decks/{deck.share_key}/proxies.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert not Job.objects.exists()


def test_with_a_broker_a_large_deck_is_queued_and_its_result_is_not_ready(
    owner, signed_in, settings
):
    settings.CELERY_BROKER_URL = BROKER
    settings.JOB_PROXY_CARDS = 40
    small = capital_deck(owner)
    assert signed_in.get(f"/api/v1/decks/{small.share_key}/proxies.pdf").status_code == 200

    large = capital_deck(owner, copies=2)
    response = signed_in.get(f"/api/v1/decks/{large.share_key}/proxies.pdf")
    assert response.status_code == 202
    job = response.json()
    # The test's transaction never commits, so the task is never sent: the job waits.
    assert (job["status"], job["done"], job["total"], job["result_url"]) == ("queued", 0, 5, None)
    not_ready = signed_in.get(f"/api/v1/jobs/{job['id']}/result")
    assert not_ready.status_code == 409 and not_ready.json()["code"] == "not_ready"


def test_with_a_broker_a_long_simulation_is_queued(owner, settings):
    settings.CELERY_BROKER_URL = BROKER
    deck = fates_deck(owner)
    url = f"/api/v1/decks/{deck.share_key}/goldfish/"
    assert APIClient().post(url, {"runs": 5000}, format="json").status_code == 200
    # JOB_GOLDFISH_RUNS counts work, and each game weighs its engine's goldfish_cost.
    runs = int(settings.JOB_GOLDFISH_RUNS / get_engine("conquest-of-fates").goldfish_cost) + 1
    response = APIClient().post(url, {"runs": runs}, format="json")
    assert response.status_code == 202
    assert response.json()["status"] == "queued"


# --- who may read a job, and for how long ---------------------------------------------------


def test_a_signed_in_users_job_is_theirs_alone(owner, signed_in):
    deck = capital_deck(owner, visibility="private")
    job = signed_in.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", **ASYNC).json()
    stranger = APIClient()
    stranger.force_authenticate(User.objects.create_user("peeker", password="x-Long-pass-9"))
    for client in (APIClient(), stranger):
        assert client.get(job["url"]).status_code == 404
        assert client.get(job["result_url"]).status_code == 404
        assert client.get(f"/jobs/{job['id']}/").status_code == 404
        assert client.get(f"/jobs/{job['id']}/result").status_code == 404


def test_an_expired_job_is_gone_and_purging_deletes_its_file(owner, signed_in):
    deck = capital_deck(owner)
    record = signed_in.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", **ASYNC).json()
    job = Job.objects.get(key=record["id"])
    path = job.result.path
    with open(path, "rb") as stored:
        assert stored.read(5) == b"%PDF-"
    assert job.expires_at - job.finished_at == timedelta(hours=24)

    Job.objects.filter(pk=job.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    gone = signed_in.get(record["url"])
    assert gone.status_code == 410 and gone.json()["code"] == "expired"

    out = io.StringIO()
    call_command("purge_jobs", stdout=out)
    assert "Deleted 1 expired job." in out.getvalue()
    assert not Job.objects.filter(pk=job.pk).exists()
    assert not Path(path).exists()
    assert signed_in.get(record["url"]).status_code == 404


def test_asking_for_a_new_job_purges_the_expired_ones(owner):
    old = Job.objects.create(
        kind=Job.Kind.PROXIES, params={}, total=1, expires_at=timezone.now() - timedelta(hours=1)
    )
    deck = capital_deck(owner)
    APIClient().get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", **ASYNC)
    assert not Job.objects.filter(pk=old.pk).exists()
    assert job_purge_expired() == 0


# --- running ---------------------------------------------------------------------------------


def test_a_job_whose_cards_left_the_catalogue_fails_with_a_reason(settings):
    settings.CELERY_BROKER_URL = BROKER
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    order = list_order("Gone", "Conquest of Orion", [(card.pk, 2)], SheetOptions())
    job = job_submit(
        kind=Job.Kind.PROXIES, params={"order": order}, total=1, owner=None, client="test"
    )
    card.delete()
    job_run(key=job.key)
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == "1 of the cards are no longer in the catalogue"
    record = APIClient().get(f"/api/v1/jobs/{job.key}/").json()
    assert (record["status"], record["error"], record["result_url"]) == (
        "failed",
        job.error,
        None,
    )


def test_a_job_delivered_twice_runs_once(owner, signed_in):
    deck = capital_deck(owner)
    record = signed_in.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf", **ASYNC).json()
    job = Job.objects.get(key=record["id"])
    job_run(key=job.key)
    again = Job.objects.get(pk=job.pk)
    assert (again.finished_at, again.result.name) == (job.finished_at, job.result.name)


def test_progress_is_written_to_the_job_as_the_work_goes():
    job = Job.objects.create(kind=Job.Kind.GOLDFISH, params={}, total=10, expires_at=timezone.now())
    progress = Progress(job, interval=0)
    progress(3)
    assert Job.objects.get(pk=job.pk).done == 3
    progress(30)
    assert Job.objects.get(pk=job.pk).done == 10
    quiet = Progress(job, interval=3600)
    quiet(1)
    assert Job.objects.get(pk=job.pk).done == 10


# --- on the web ------------------------------------------------------------------------------


def test_the_web_proxies_link_of_a_large_deck_leads_to_a_job_page_when_a_worker_exists(
    owner, client, settings
):
    settings.CELERY_BROKER_URL = BROKER
    settings.JOB_PROXY_CARDS = 40
    deck = capital_deck(owner, copies=2)
    response = client.get(f"/decks/{deck.share_key}/proxies.pdf")
    assert response.status_code == 302
    job = Job.objects.get()
    assert response["Location"] == f"/jobs/{job.key}/"

    page = client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "Queued" in html and "0 of 5 pages drawn" in html
    assert "Download" not in html

    job_run(key=job.key)
    html = client.get(response["Location"]).content.decode()
    assert "http-equiv" not in html and "5 of 5 pages drawn" in html
    assert f'href="/jobs/{job.key}/result"' in html
    pdf = client.get(f"/jobs/{job.key}/result")
    assert pdf["Content-Type"] == "application/pdf"
    assert len(PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages) == 6


def test_a_long_simulation_on_the_goldfish_page_becomes_a_job_whose_results_show_there(
    owner, client, settings
):
    settings.CELERY_BROKER_URL = BROKER
    settings.JOB_GOLDFISH_RUNS = 3000
    deck = fates_deck(owner)
    page = f"/decks/{deck.share_key}/goldfish/"
    assert 'max="1000000"' in client.get(page, follow=True).content.decode()
    # 40,000 games weigh 3,200 (goldfish_cost 0.08): past the 3,000 set above.
    response = client.get(page, {"runs": 40000, "seed": 2, "policy_mulligan_below_units": 4})
    assert response.status_code == 302
    job = Job.objects.get()
    job_run(key=job.key)

    status = client.get(response["Location"]).content.decode()
    assert "40,000 of 40,000 games simulated" in status
    assert f"{page}?job={job.key}" in status
    shown = client.get(page, {"job": job.key})
    assert shown.status_code == 200
    html = shown.content.decode()
    assert "40000 games, seed 2" in html and 'class="chart-grid"' in html


def test_a_goldfish_page_will_not_show_another_decks_job(owner, client):
    first, second = fates_deck(owner), fates_deck(owner)
    body = {"runs": 100, "seed": 1}
    record = (
        APIClient()
        .post(f"/api/v1/decks/{first.share_key}/goldfish/", body, format="json", **ASYNC)
        .json()
    )
    assert (
        client.get(f"/decks/{first.share_key}/goldfish/", {"job": record["id"]}).status_code == 200
    )
    assert (
        client.get(f"/decks/{second.share_key}/goldfish/", {"job": record["id"]}).status_code == 404
    )
