"""The deck pages' labels read right to a new user (issue 28, "Labels that read carelessly"):
each test builds a deck from the fixture data and reads the page as a visitor would."""

import re

import pytest
from django.urls import reverse

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create

pytestmark = pytest.mark.django_db


def make_deck(owner, game_slug, cards, *, format_slug=None, faction=None):
    game = Game.objects.get(slug=game_slug)
    return deck_create(
        owner=owner,
        game=game,
        format_slug=format_slug or game.engine.formats[0].slug,
        name="Labels",
        visibility="public",
        faction=faction,
        intake=Intake(tuple(RequestedCard(n, None, c.short_id) for c, n in cards)),
    )


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("labels", password="x-Long-pass-9")


def headings(page):
    return re.findall(r"<h2>([^<]*) <small>([^<]*)</small></h2>", page)


def test_a_type_heading_counts_copies_as_the_chart_does(client, owner):
    card = Card.objects.filter(game__slug="conquest-of-orion", card_type__isnull=False).first()
    deck = make_deck(owner, "conquest-of-orion", [(card, 3)])
    page = client.get(deck.get_absolute_url()).content.decode()
    assert (card.card_type.name, "3 cards, 1 different") in headings(page)


def test_a_game_of_one_zone_names_no_zone_on_its_rows(client, owner):
    cards = Card.objects.filter(game__slug="conquest-of-orion")[:3]
    deck = make_deck(owner, "conquest-of-orion", [(c, 1) for c in cards])
    page = client.get(deck.get_absolute_url()).content.decode()
    only_zone = deck.game.engine.zones[0]
    assert f"<small>{only_zone.slug}</small>" not in page
    assert f"<small>{only_zone.name}</small>" not in page


def test_a_game_of_several_zones_names_each_rows_zone_in_words(client, owner):
    game = Game.objects.get(slug="conquest-for-the-capital")
    assert len(game.engine.zones) > 1
    card = Card.objects.filter(game=game, card_type__isnull=False).first()
    deck = make_deck(owner, game.slug, [(card, 1)])
    zone = deck.entries.get().zone
    name = next(z.name for z in game.engine.zones if z.slug == zone)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f"<small>{name}</small>" in page
    assert f"<small>{zone}</small>" not in page


def test_an_empty_deck_does_not_say_the_collection_holds_its_cards(client, owner):
    deck = make_deck(owner, "conquest-of-orion", [])
    client.force_login(owner)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert "This deck has no cards yet" in page
    assert "holds every card of this deck" not in page


def test_a_deck_whose_format_needs_no_faction_is_labelled_with_none(client, owner):
    game = Game.objects.get(slug="fate-foretold")
    fmt = next(f for f in game.engine.formats if not f.needs_faction)
    heart = game.factions.get(name="Heart")
    cards = Card.objects.filter(game=game, factions=heart)[:3]
    deck = make_deck(owner, game.slug, [(c, 1) for c in cards], format_slug=fmt.slug)
    deck.faction = heart
    deck.save(update_fields=["faction"])
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f"· {heart.name}</p>" not in page
    listing = client.get(reverse("decks:public")).content.decode()
    row = listing[listing.index(deck.get_absolute_url()) :].split("</tr>")[0]
    assert f'data-label="Faction">{heart.name}<' not in row


def test_a_deck_whose_format_needs_a_faction_still_shows_it(client, owner):
    game = Game.objects.get(slug="conquest-for-the-capital")
    fmt = next(f for f in game.engine.formats if f.needs_faction)
    faction = game.factions.first()
    cards = Card.objects.filter(game=game, factions=faction)[:2]
    deck = make_deck(
        owner, game.slug, [(c, 1) for c in cards], format_slug=fmt.slug, faction=faction.name
    )
    page = client.get(deck.get_absolute_url()).content.decode()
    assert f"· {faction.name}</p>" in page


def test_the_format_filter_names_the_game_of_a_format_name_two_games_share(client):
    page = client.get(reverse("decks:public")).content.decode()
    options = re.findall(r'<option value="[^"]*"[^>]*>([^<]*)</option>', page)
    shared = [
        (f.name, g)
        for g in Game.objects.all()
        for f in g.engine.formats
        if sum(f.name == o.name for h in Game.objects.all() for o in h.engine.formats) > 1
    ]
    assert shared, "the fixtures hold two games with a format of the same name"
    for name, game in shared:
        assert f"{name} ({game.name})" in options
    format_options = [o for o in options if any(o.startswith(n) for n, _ in shared)]
    assert len(format_options) == len(set(format_options))


def test_a_plural_zones_size_problem_reads_as_english(client, owner):
    game = Game.objects.get(slug="fate-foretold")
    sigil = Card.objects.filter(game=game, card_type__name="Sigil").first()
    deck = make_deck(owner, game.slug, [(sigil, 7)], format_slug="nest")
    page = client.get(deck.get_absolute_url()).content.decode()
    assert "The set of Sigils has 7 cards" in page
