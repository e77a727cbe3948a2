import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tests.decks.test_builder_pages import builder, make_deck, sample  # noqa
pytestmark = pytest.mark.django_db

def test_probe(builder):
    deck = make_deck(builder, "conquest-of-orion/constructed", "Big")
    cards = list(sample("conquest-of-orion", card_type__name="Unit")[:30])
    builder.post(f"/decks/{deck.share_key}/edit/import/", {"decklist": "\n".join(f"1 {c.name}" for c in cards), "version": 1})
    url = f"/decks/{deck.share_key}/edit/card/"
    builder.post(url, {"card": cards[0].short_id, "action": "add", "version": 2})
    with CaptureQueriesContext(connection) as q:
        builder.post(url, {"card": cards[1].short_id, "action": "add", "version": 3}, HTTP_HX_REQUEST="true")
    for x in q.captured_queries:
        print(x["sql"][:300])
    print(len(q.captured_queries))
