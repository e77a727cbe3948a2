import pytest
from tests.decks.test_builder_pages import builder, make_deck, sample  # noqa
pytestmark = pytest.mark.django_db

def test_probe(builder):
    deck = make_deck(builder, "conquest-of-orion/constructed", "Big")
    cards = list(sample("conquest-of-orion", card_type__name="Unit")[:30])
    builder.post(f"/decks/{deck.share_key}/edit/import/", {"decklist": "\n".join(f"1 {c.name}" for c in cards[:5]), "version": 1})
    url = f"/decks/{deck.share_key}/edit/card/"
    r = builder.post(url, {"card": cards[1].short_id, "action": "add", "version": 2}, HTTP_HX_REQUEST="true")
    print(r.status_code, dict(r.headers)); print(r.content.decode())
    r = builder.post(url, {"card": cards[9].short_id, "action": "add", "version": 3}, HTTP_HX_REQUEST="true")
    print(r.status_code); print(r.content.decode()[:3000])
