"""The issue's path, end to end on the real pages: a player adds a card from their hand with a
photo, a curator approves it, and the card is then in search, in the builder, in the proxies
and in the player's collection; a second player's edit is rejected with a reason and a third's
approved, and the card's history names all three."""

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from cardsite.catalogue.models import Card
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.proposals import SourceInput, proposal_create
from decks.models import Deck
from tests.contributions.conftest import _user, jpeg

pytestmark = pytest.mark.django_db
NAME = "Lantern of the Hand"


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _propose(user, game, **kwargs) -> Proposal:
    return proposal_create(proposer=user, game=game, **kwargs)


def test_a_players_card_reaches_every_tool_and_its_history_names_everyone(game, card, curator):
    player = _user("holder")
    added = _propose(
        player,
        game,
        kind="card",
        changes={"set": card.card_set.code, "number": "501", "name": NAME},
        source=SourceInput("printed_card"),
        photo=jpeg(),
    )
    reviewer = _signed_in(curator)
    assert reviewer.post(f"/proposals/{added.pk}/approve/").status_code == 302
    new = Card.objects.get(name=NAME)
    assert new.community == "sourced"

    assert NAME in Client().get("/search/", {"q": NAME}).content.decode()
    assert Client().get(f"/api/v1/cards/?q={NAME}").json()["results"][0]["name"] == NAME

    builder = _signed_in(player)
    builder.post("/decks/new/", {"name": "From my box", "game_format": f"{game.slug}/faction-deck"})
    deck = Deck.objects.get(name="From my box")
    builder.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": new.short_id, "action": "add", "version": deck.version},
    )
    assert deck.entries.filter(card=new).exists()
    pdf = builder.get(f"/decks/{deck.share_key}/proxies.pdf")
    assert pdf.status_code == 200
    assert NAME in "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)

    builder.post("/collection/", {"game": game.slug, "mode": "add", "text": f"2 {NAME}"})
    assert player.collection.get(card=new).quantity == 2

    second, third = _user("second"), _user("third")
    rejected = _propose(
        second,
        game,
        kind="edit",
        card=new,
        changes={"text": "Wrong."},
        source=SourceInput("rulebook", "my memory"),
    )
    reviewer.post(f"/proposals/{rejected.pk}/reject/", {"reason": "Not on the printed card."})
    approved = _propose(
        third,
        game,
        kind="edit",
        card=new,
        changes={"text": "Draw a card."},
        source=SourceInput("publisher", url="https://example.com/cards/501"),
    )
    reviewer.post(f"/proposals/{approved.pk}/approve/")

    history = Client().get(f"/api/v1/cards/{new.short_id}/history/").json()
    assert [(c["field"], c["author"], c["reviewer"]) for c in history][:1] == [
        ("card", "holder", curator.username)
    ]
    assert ("text", "third", "https://example.com/cards/501") in {
        (c["field"], c["author"], c["source"].get("url")) for c in history
    }
    assert "second" not in {c["author"] for c in history}
    assert Proposal.objects.get(pk=rejected.pk).reason == "Not on the printed card."
    page = Client().get(new.get_absolute_url()).content.decode()
    assert "Draw a card." in page and "third" in page and "holder" in page
