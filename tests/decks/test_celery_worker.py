"""A real Celery worker, fed through the machine's Redis, runs a job a request queued.

Runs on PostgreSQL (CI runs the suite there too): the worker thread has its own database
connection and must see what the request committed, which an in-memory SQLite shared between
threads inside one test transaction cannot show honestly.
"""

import io
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User
from django.db import connection
from pypdf import PdfReader
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card, Game
from cardsite.celery import app
from decks.services import Intake, RequestedCard, deck_create
from tests.redis_dbs import redis_url

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a worker thread needs a real database server"
)
BROKER = redis_url(15)


@pytest.fixture
def worker(django_db_setup, settings):
    settings.CELERY_BROKER_URL = BROKER
    settings.JOB_PROXY_CARDS = 30
    # A queue of this run's own, so no message left by another run is taken.
    queue = f"cardsite-test-{uuid.uuid4().hex[:8]}"
    app.conf.update(broker_url=BROKER, task_default_queue=queue)
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue]):
        yield
    app.conf.update(broker_url=None, task_default_queue="celery")


@pytest.fixture
def big_deck(django_db_setup, django_db_blocker):
    # Committed, so the worker's own connection sees it; removed afterwards with its jobs.
    with django_db_blocker.unblock():
        owner = User.objects.create_user("worker-owner", password="x-Long-pass-9")
        dwarves = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-for-the-capital"),
            format_slug="faction-deck",
            name="Queued hold",
            visibility="private",
            intake=Intake(tuple([RequestedCard(2, None, c.short_id) for c in dwarves])),
        )
    yield owner, deck
    with django_db_blocker.unblock():
        User.objects.filter(pk=owner.pk).delete()


def test_a_worker_takes_a_queued_proxy_job_and_its_pdf_can_be_fetched(
    worker, big_deck, django_db_blocker
):
    owner, deck = big_deck
    client = APIClient()
    client.force_authenticate(owner)
    with django_db_blocker.unblock():
        response = client.get(f"/api/v1/decks/{deck.share_key}/proxies.pdf")
        assert response.status_code == 202, response.content
        url = response["Location"]
        seen = [response.json()["status"]]
        deadline = time.monotonic() + 60
        while seen[-1] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.2)
            seen.append(client.get(url).json()["status"])
        record = client.get(url).json()
        assert record["status"] == "done", record
        assert record["done"] == record["total"] == 5
        # Never backwards: queued, maybe running, then done.
        order = ["queued", "running", "done"]
        assert [order.index(s) for s in seen] == sorted(order.index(s) for s in seen)
        pdf = client.get(record["result_url"])
        assert pdf["Content-Type"] == "application/pdf"
        assert len(PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages) == 6
