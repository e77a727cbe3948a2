"""A deck's history outlives the catalogue it was built from: versions name cards by short id,
so loading the catalogue again changes nothing in them, and a card the catalogue no longer
has still shows in an old version, by its short id."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from cardsite.catalogue.models import Card, Game
from cardsite.catalogue.versioning import catalogue_version
from decks.history.diff import diff_states
from decks.history.reads import deck_versions, first_kept, version_views
from decks.models import DeckVersion
from decks.services import (
    DeckContentError,
    Intake,
    RequestedCard,
    deck_checkpoint,
    deck_create,
    deck_revert,
    deck_set_quantity,
    deck_update,
    game_snapshot,
)
from decks.services.history import MAYBE, state_at

pytestmark = pytest.mark.django_db
GAME = "conquest-of-orion"


@pytest.fixture
def owner():
    return User.objects.create_user("archivist", password="x-Long-pass-9")


def cards(n: int) -> list[Card]:
    return list(Card.objects.filter(game__slug=GAME, card_type__zone="main").order_by("id")[:n])


@pytest.fixture
def deck(owner):
    """A deck with eight versions: cards, planned cards and settings changed, and a revert."""
    a, b, c, d = cards(4)
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=GAME),
        format_slug="constructed",
        name="Through the ages",
        intake=Intake((RequestedCard(2, None, a.short_id), RequestedCard(1, None, b.short_id))),
        note="Start",
    )
    deck_set_quantity(deck=deck, expected_version=1, card=c.short_id, step=1, author=owner)
    deck_set_quantity(deck=deck, expected_version=2, card=d.short_id, zone=MAYBE, quantity=2)
    deck_update(
        deck=deck, expected_version=3, changes={"name": "Later", "format": "limited"}, author=owner
    )
    deck_set_quantity(deck=deck, expected_version=4, card=a.short_id, quantity=0, author=owner)
    deck_revert(deck=deck, expected_version=5, version=2, author=owner)
    deck_update(deck=deck, expected_version=6, changes={"visibility": "public"}, author=owner)
    deck_set_quantity(deck=deck, expected_version=7, card=b.short_id, step=2, author=owner)
    return deck


def history(deck) -> dict:
    """Everything a reader sees of the deck's history: each version's record, its rebuilt
    state, and its changes in the catalogue's names."""
    versions = list(deck_versions(deck))
    return {
        "rows": [
            (v.number, v.created_at, v.author_id, v.note, v.changes, v.setting_changes, v.snapshot)
            for v in versions
        ],
        "states": {v.number: state_at(deck, v.number) for v in versions},
        "views": [
            (view.number, view.note, view.summary, [line.sentence() for line in view.diff.lines()])
            for view in version_views(deck, versions, first_kept(deck))
        ],
    }


def test_a_decks_history_reads_the_same_after_the_catalogue_is_loaded_again(deck):
    before = history(deck)
    assert len(before["rows"]) == 8
    named = {sentence for *_, sentences in before["views"] for sentence in sentences}
    assert f"+2 {cards(1)[0].name}" in named  # in the catalogue's names, not short ids
    version = catalogue_version()

    call_command("load_games", stdout=io.StringIO())
    Card.objects.get(pk=cards(1)[0].pk).save()  # a change the snapshot must notice

    assert catalogue_version() != version
    assert history(deck) == before


def test_a_card_gone_from_the_catalogue_still_shows_in_old_versions_by_its_short_id(deck, owner):
    gone = cards(5)[4]
    # Checkpoints keep versions 8 and 9 apart: the builder's next edit would fold into them.
    deck_checkpoint(deck=deck, author=owner, note="", expected_version=8)
    deck_set_quantity(deck=deck, expected_version=8, card=gone.short_id, step=3, author=owner)
    deck_checkpoint(deck=deck, author=owner, note="", expected_version=9)
    deck_set_quantity(deck=deck, expected_version=9, card=gone.short_id, quantity=0, author=owner)
    name = gone.name
    with_card = state_at(deck, 9)
    assert (gone.short_id, "main") in with_card.cards

    gone.delete()

    views = {v.number: v for v in version_views(deck, list(deck_versions(deck)), 1)}
    (added,) = views[9].diff.added
    assert (added.short_id, added.name, added.url) == (gone.short_id, gone.short_id, None)
    assert added.sentence() == f"+3 {gone.short_id}"
    assert views[10].diff.removed[0].sentence() == f"\u22123 {gone.short_id}"
    assert name not in str(views)
    assert state_at(deck, 9) == with_card
    diff = diff_states(game_snapshot(GAME), state_at(deck, 8), with_card)
    assert [line.name for line in diff.added] == [gone.short_id]
    # Going back to a version that held it cannot be done, and writes nothing.
    with pytest.raises(DeckContentError):
        deck_revert(deck=deck, expected_version=10, version=9, author=owner)
    assert DeckVersion.objects.filter(deck=deck).count() == 10
