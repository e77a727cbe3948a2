"""The deck pipeline called directly: intake, resolve through the snapshot, validate, write."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card, Game
from decks.services import (
    DeckContentError,
    Intake,
    RequestedCard,
    check,
    deck_create,
    deck_set_quantity,
    game_snapshot,
    intake_deck,
    intake_text,
    legality,
    resolve,
)
from engines.errors import InputError

pytestmark = pytest.mark.django_db


def orion_cards(n=50):
    return list(Card.objects.filter(card_set__code="ORI-SMP", card_type__zone="main")[:n])


def test_a_warm_check_of_fifty_cards_reads_nothing_from_the_database():
    cards = orion_cards()
    intake = Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards))
    game_snapshot("conquest-of-orion")
    with CaptureQueriesContext(connection) as queries:
        result = check(resolve(game="conquest-of-orion", intake=intake), "constructed")
    assert len(queries) == 0
    assert result.counts["total"] == len(cards)


def test_a_saved_deck_is_checked_in_at_most_two_queries_whatever_its_size(django_user_model):
    owner = django_user_model.objects.create_user("pipe", password="x-Long-pass-9")
    cards = orion_cards()
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Fifty",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    game_snapshot("conquest-of-orion")
    with CaptureQueriesContext(connection) as queries:
        resolved = resolve(game="conquest-of-orion", intake=intake_deck(deck))
        check(resolved, deck.format)
    assert len(queries) <= 2
    assert len(resolved.entries) == len(cards)


def test_the_snapshot_follows_a_catalogue_change():
    card = orion_cards(1)[0]
    assert game_snapshot("conquest-of-orion").cards[card.short_id].name == card.name
    card.name = "Renamed Sample Card"
    card.save()
    assert game_snapshot("conquest-of-orion").cards[card.short_id].name == "Renamed Sample Card"


def test_problems_are_sorted_by_severity_then_line_number_as_a_number():
    text = "\n".join(["1 Nowhere Card"] * 1 + ["1 Card Of Nothing"] * 1) + "\n" * 8 + "1 Zzz"
    resolved = resolve(
        game="conquest-of-orion",
        intake=intake_text(text, game_snapshot("conquest-of-orion").engine),
    )
    lines = [p.line for p in check(resolved, "constructed").problems if p.line is not None]
    assert lines == sorted(lines) and lines[-1] == 10


def test_repeats_of_one_unknown_name_are_one_problem_listing_its_lines():
    engine = game_snapshot("conquest-of-orion").engine
    resolved = resolve(
        game="conquest-of-orion", intake=intake_text("1 Nowhere Card\n2 Nowhere Card\n", engine)
    )
    unknown = [p for p in check(resolved, "constructed").problems if p.code == "unknown_card"]
    assert len(unknown) == 1 and unknown[0].lines == (1, 2)
    assert "(lines 1, 2)" in unknown[0].message


def test_legality_in_every_format_comes_from_one_resolve():
    resolved = resolve(
        game="conquest-of-orion",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in orion_cards(30))),
    )
    with CaptureQueriesContext(connection) as queries:
        results = legality(resolved)
    assert len(queries) == 0
    assert [r.format.slug for r in results] == ["constructed", "limited"]


def test_a_write_with_an_unknown_card_stores_nothing():
    owner = User.objects.create_user("pipe2", password="x-Long-pass-9")
    with pytest.raises(DeckContentError):
        deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Bad",
            intake=Intake((RequestedCard(1, "No Such Card Anywhere"),)),
        )
    assert not owner.decks.exists()


def test_a_write_to_a_format_the_game_lacks_names_the_format():
    owner = User.objects.create_user("pipe3", password="x-Long-pass-9")
    with pytest.raises(InputError) as refused:
        deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="sealed",
            name="Bad",
        )
    assert refused.value.field == "format"


def test_setting_one_cards_quantity_stays_within_one_and_ninety_nine():
    owner = User.objects.create_user("pipe4", password="x-Long-pass-9")
    card = orion_cards(1)[0]
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Q",
    )
    deck = deck_set_quantity(deck=deck, expected_version=None, card=card.short_id, quantity=500)
    assert deck.entries.get().quantity == 99
    deck = deck_set_quantity(deck=deck, expected_version=None, card=card.short_id, step=-99)
    assert not deck.entries.exists()


def _orion_deck(name: str, cards=()):
    owner = User.objects.create_user(name, password="x-Long-pass-9")
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name=name,
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def test_one_quantity_change_writes_its_row_and_the_version_and_nothing_else():
    cards = orion_cards(10)
    deck = _orion_deck("pipe5", cards)
    rows_before = dict(deck.entries.values_list("card_id", "id"))
    game_snapshot("conquest-of-orion")
    with CaptureQueriesContext(connection) as queries:
        deck = deck_set_quantity(deck=deck, expected_version=1, card=cards[3].short_id, step=1)
    writes = [
        q["sql"] for q in queries if not q["sql"].startswith(("SELECT", "SAVEPOINT", "RELEASE"))
    ]
    # The version bump, the card's row, and the version's one-line record.
    assert [w.split()[:3] for w in writes] == [
        ["UPDATE", '"decks_deck"', "SET"],
        ["UPDATE", '"decks_deckentry"', "SET"],
        ["INSERT", "INTO", '"decks_deckversion"'],
    ]
    assert deck.version == 2
    assert dict(deck.entries.values_list("card_id", "id")) == rows_before
    assert deck.entries.get(card=cards[3]).quantity == 2


def test_a_new_card_is_one_insert_and_the_last_copy_out_is_one_delete():
    cards = orion_cards(3)
    deck = _orion_deck("pipe6", cards[:2])
    game_snapshot("conquest-of-orion")
    with CaptureQueriesContext(connection) as added:
        deck = deck_set_quantity(deck=deck, expected_version=1, card=cards[2].short_id, step=1)
    with CaptureQueriesContext(connection) as removed:
        deck = deck_set_quantity(deck=deck, expected_version=2, card=cards[0].short_id, step=-1)
    assert any(q["sql"].startswith("INSERT") for q in added)
    assert any(q["sql"].startswith("DELETE") for q in removed)
    assert sorted(deck.entries.values_list("card_id", flat=True)) == sorted(c.pk for c in cards[1:])
    assert deck.version == 3


def test_a_change_that_changes_nothing_writes_nothing_and_keeps_the_version():
    deck = _orion_deck("pipe7")
    card = orion_cards(1)[0]
    deck = deck_set_quantity(deck=deck, expected_version=1, card=card.short_id, step=-1)
    deck.refresh_from_db()
    assert deck.version == 1 and not deck.entries.exists()


def test_adding_past_the_decks_total_is_refused_naming_the_limit_and_taking_out_is_not():
    cards = orion_cards(2)
    deck = _orion_deck("pipe8")
    deck = deck_set_quantity(deck=deck, expected_version=None, card=cards[0].short_id, quantity=99)
    with pytest.raises(InputError, match="at most 100 cards; this one has 101"):
        deck_set_quantity(deck=deck, expected_version=None, card=cards[1].short_id, quantity=2)
    assert deck.entries.count() == 1
    deck = deck_set_quantity(deck=deck, expected_version=None, card=cards[1].short_id, step=1)
    deck = deck_set_quantity(deck=deck, expected_version=None, card=cards[0].short_id, step=-1)
    assert sorted(deck.entries.values_list("quantity", flat=True)) == [1, 98]


def test_a_zone_the_game_does_not_have_is_refused_naming_the_zones():
    deck = _orion_deck("pipe9")
    with pytest.raises(InputError, match="has no zone 'sideboard'; zones: main") as refused:
        deck_set_quantity(
            deck=deck, expected_version=None, card=orion_cards(1)[0].short_id, zone="sideboard"
        )
    assert refused.value.field == "zone"


def test_a_stale_version_is_refused_even_when_the_change_would_change_nothing():
    from decks.services import DeckConflict

    deck = _orion_deck("pipe10")
    with pytest.raises(DeckConflict):
        deck_set_quantity(deck=deck, expected_version=7, card=orion_cards(1)[0].short_id, step=-1)


def test_a_deck_of_no_faction_takes_the_one_its_cards_share_as_a_whole_write_does():
    humans = list(Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans")[:2])
    deck = _orion_deck("pipe11")
    deck = deck_set_quantity(deck=deck, expected_version=None, card=humans[0].short_id, step=1)
    assert deck.faction.name == "Humans"
    deck.refresh_from_db()
    assert deck.faction.name == "Humans"
