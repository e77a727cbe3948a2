"""The card page's body is cached with the catalogue version it was rendered under: a warm page
reads no database, and any catalogue write is seen on the next request."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card
from cardsite.catalogue.versioning import KEY

pytestmark = pytest.mark.django_db


@pytest.fixture
def card():
    return Card.objects.filter(game__slug="conquest-of-orion").order_by("id")[0]


def test_a_warm_card_page_reads_no_row(client, card):
    client.get(card.get_absolute_url())
    with CaptureQueriesContext(connection) as queries:
        assert client.get(card.get_absolute_url()).status_code == 200
    assert [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]] == []


def test_a_catalogue_write_shows_on_the_next_request(client, card):
    client.get(card.get_absolute_url())
    card.flavour_text = "Freshly written flavour."
    card.save()
    assert "Freshly written flavour." in client.get(card.get_absolute_url()).content.decode()


def test_a_lost_catalogue_version_never_serves_a_page_cached_under_the_old_one(client, card):
    client.get(card.get_absolute_url())
    cache.delete(KEY)  # evicted: the next version starts from the clock, never an old number
    card.flavour_text = "Written after the eviction."
    card.save()
    assert "Written after the eviction." in client.get(card.get_absolute_url()).content.decode()
