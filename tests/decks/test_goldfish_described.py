"""The goldfish page says what it simulates, in words from the game's declared procedure,
what its ± means, and folds a long per-card or per-turn figure."""

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from engines import ENGINES

pytestmark = pytest.mark.django_db


def deck_of(game, distinct=40):
    owner = User.objects.create_user(f"gd-{game}", password="x-Long-pass-9")
    cards = Card.objects.filter(game__slug=game).exclude(card_type__name="Planet")[:distinct]
    fmt = Game.objects.get(slug=game).engine.formats[0].slug
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=game),
        format_slug=fmt,
        name="GD",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_page_opens_with_what_a_simulated_game_does_for_every_game(client, game):
    deck = deck_of(game)
    response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1})
    page = response.content.decode()
    described = response.context["described"]
    assert "What is simulated" in page
    assert page.index("What is simulated") < page.index("Sample hand")
    for sentence in described.sentences:
        assert sentence.split(";")[0].replace("'", "&#x27;") in page
    assert "Not simulated: an opponent" in page


def test_the_page_explains_the_plus_minus_as_a_standard_deviation_and_over_what(client):
    deck = deck_of("conquest-of-orion")
    page = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1}).content.decode()
    assert "the standard deviation of the values it averages" in page
    assert "the games in which that card became playable" in page


def test_the_description_follows_the_settings_simulated(client):
    deck = deck_of("conquest-alpha-tactics")
    url = f"/decks/{deck.share_key}/goldfish/"
    page = client.get(url, {"seed": 1, "runs": 20, "policy_plays_per_round": 5}).content.decode()
    assert "place 5 cards from the hand" in page


def test_a_figure_of_one_row_per_card_folds_with_its_count_and_short_ones_stay_open(client):
    deck = deck_of("conquest-of-orion")
    response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 20})
    page = response.content.decode()
    sections = response.context["summary"].sections
    folded = [s for s in sections if s.folded]
    assert folded and all(len(s.rows) > 10 for s in folded)
    assert any(
        s.title == "…: first turn playable (in hand, Tier reached, cost payable)" for s in folded
    )
    # Ten turns, one row each: short enough to stay open.
    opened = [r.label for s in sections if not s.folded for r in s.rows]
    assert "Turn 10: playable cards in hand" in opened
    rows = len(folded[0].rows)
    assert (
        f'<details class="summary-fold"><summary>{folded[0].title} <small>({rows} rows)</small>'
        in page
    )
    assert sum(len(s.rows) for s in sections) == len(response.context["summary"].rows)


def test_a_long_summary_folds_every_per_card_figure_and_keeps_the_per_turn_ones_open(client):
    # Ten distinct cards over ten turns: the 51 rows.
    deck = deck_of("conquest-of-orion", distinct=10)
    response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 20})
    summary = response.context["summary"]
    assert len(summary.rows) == 51
    folded = [s for s in summary.sections if s.folded]
    assert [len(s.rows) for s in folded] == [10, 10, 10]
    assert all(s.title.startswith("…: ") for s in folded)
    opened = [r.label for s in summary.sections if not s.folded for r in s.rows]
    assert len(opened) == 21 and opened[0] == "Turns simulated"
    assert response.content.decode().count('<details class="summary-fold">') == 3
