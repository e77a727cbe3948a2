import pytest

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_branch, deck_create

pytestmark = pytest.mark.django_db


def test_smoke(client, django_user_model):
    owner = django_user_model.objects.create_user("o", password="x-Long-pass-9")
    game = Game.objects.get(slug="conquest-of-orion")
    cards = list(Card.objects.filter(game=game, card_set__is_official=False)[:8])
    deck = deck_create(owner=owner, game=game, format_slug=game.engine.formats[0].slug, name="Base",
        visibility="public", intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards)))
    v = deck_branch(deck=deck, owner=owner, name="vs. aggro")
    client.force_login(owner)
    for url in [deck.get_absolute_url(), v.get_absolute_url(), f"/decks/{deck.share_key}/variants/",
                f"/decks/compare/?a={deck.share_key}&b={v.share_key}", f"/decks/compare/?a={deck.share_key}", "/decks/compare/", "/decks/mine/"]:
        r = client.get(url)
        print(url, r.status_code)
        open("/tmp/vsmoke/" + url.replace("/", "_")[:60] + ".html", "w").write(r.content.decode())
        assert r.status_code == 200
