"""A builder +/- does only what changed: at most 6 queries in all (session, user, the one read
of the deck, the version bump, the card's row and the version's record, folding included),
and for htmx only the changed rows and the panel's head, as out-of-band fragments."""

import re

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard, Pool, PoolMember
from decks.models import Deck, DeckVersion
from decks.reading.editing import deck_for_edit
from decks.reading.owning import owned_by_short_id
from decks.views.edit_cores import edit_core
from decks.views.panel import Choices
from tests.decks.test_builder_pages import make_deck, sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def dana(client):
    user = User.objects.create_user("dana", password="x-Long-pass-9")
    client.force_login(user)
    return user


def big_deck(client, count=30):
    deck = make_deck(client, "conquest-of-orion/constructed", "Big")
    cards = list(sample("conquest-of-orion", card_type__name="Unit")[:count])
    client.post(
        f"/decks/{deck.share_key}/edit/import/",
        {"decklist": "\n".join(f"1 {c.name}" for c in cards[:-1]), "version": 1},
    )
    return deck, cards


def step(client, deck, card, action, version, **extra):
    return client.post(
        f"/decks/{deck.share_key}/edit/card/",
        {"card": card.short_id, "action": action, "version": version, **extra},
        HTTP_HX_REQUEST="true",
    )


def oob_ids(html):
    return re.findall(r'<[a-z0-9]+ [^>]*?id="([^"]+)"[^>]*hx-swap-oob="true"', html)


def test_a_plus_or_minus_costs_at_most_six_queries_folding_included(
    client, dana, django_assert_max_num_queries
):
    deck, cards = big_deck(client)
    step(client, deck, cards[0], "add", 2)  # warm; opens the fold the next ones join
    with django_assert_max_num_queries(6):
        response = step(client, deck, cards[1], "add", 3)
    assert response.status_code == 200
    with django_assert_max_num_queries(6):
        step(client, deck, cards[1], "remove", 4, zone="main")
    # A card not yet in the deck: its row comes in its group, still within the six.
    with django_assert_max_num_queries(6):
        step(client, deck, cards[-1], "add", 5)
    assert Deck.objects.get(pk=deck.pk).version == 6
    assert DeckVersion.objects.filter(deck=deck).count() == 3  # created, import, one fold


def test_a_plus_answers_with_only_the_changed_row_and_the_head(client, dana):
    deck, cards = big_deck(client)
    response = step(client, deck, cards[0], "add", 2)
    html = response.content.decode()
    assert response["HX-Reswap"] == "none"
    ids = oob_ids(html)
    assert f"row-{cards[0].short_id}-main" in ids
    assert {"deck-head", "deck-problems", "deck-meta", "count-main"} <= set(ids)
    assert sum(i.startswith("row-") for i in ids) == 1  # the other 28 rows are not sent
    assert 'data-version="3"' in html and 'data-undo="1"' in html
    assert re.search(r"<strong data-deck-count>30</strong>", html)


def placed(html, card):
    """Where the answer puts the new row of `card`: (how, beside which card's short id)."""
    found = re.search(
        r'<div hx-swap-oob="(beforebegin|afterend):#row-(\w+)-main">'
        rf'<li id="row-{card.short_id}-main"',
        html,
    )
    return found and found.groups()


def test_a_card_new_to_the_deck_comes_alone_in_its_place_and_a_gone_one_is_deleted(client, dana):
    deck, cards = big_deck(client)
    new = cards[-1]
    by_name = sorted(cards, key=lambda c: c.name)
    i = by_name.index(new)
    html = step(client, deck, new, "add", 2).content.decode()
    # Not its whole group again: the one row, before the row that follows it by name (or
    # after the last), and the group's heading with its new count.
    assert "group-main-unit" not in oob_ids(html)
    assert "head-main-unit" in oob_ids(html)
    if i + 1 < len(by_name):
        assert placed(html, new) == ("beforebegin", by_name[i + 1].short_id)
    else:
        assert placed(html, new) == ("afterend", by_name[i - 1].short_id)
    assert html.count(f'id="row-{new.short_id}-main"') == 1
    html = step(client, deck, new, "remove", 3, zone="main").content.decode()
    assert f'<div id="row-{new.short_id}-main" hx-swap-oob="delete"></div>' in html
    assert "group-main-unit" not in oob_ids(html) and "head-main-unit" in oob_ids(html)


def test_a_card_new_to_the_deck_that_sorts_last_goes_after_the_last_row(client, dana):
    deck, cards = big_deck(client)
    last = max(cards[:-1], key=lambda c: c.name)
    step(client, deck, last, "remove", 2, zone="main")
    html = step(client, deck, last, "add", 3).content.decode()
    before_it = max((c for c in cards[:-1] if c != last), key=lambda c: c.name)
    assert placed(html, last) == ("afterend", before_it.short_id)


def test_a_card_of_a_type_new_to_the_deck_brings_its_group_alone_and_takes_it_away(client, dana):
    deck, _ = big_deck(client)
    ability = sample("conquest-of-orion", card_type__name="Ability").first()
    html = step(client, deck, ability, "add", 2).content.decode()
    # The Ability group, placed beside the Units' group; not the zone again.
    assert "zone-main" not in oob_ids(html)
    found = re.search(r'<div hx-swap-oob="(beforebegin|afterend):#group-main-unit">', html)
    assert found and 'id="group-main-ability"' in html[found.end() : found.end() + 200]
    assert f'id="row-{ability.short_id}-main"' in html
    html = step(client, deck, ability, "remove", 3, zone="main").content.decode()
    assert '<div id="group-main-ability" hx-swap-oob="delete"></div>' in html
    assert "zone-main" not in oob_ids(html)


def test_the_first_card_of_a_zone_draws_the_whole_panel(client, dana):
    deck = make_deck(client)
    angel = Card.objects.get(card_set__code="FF-RB", name="The Angel")
    response = step(client, deck, angel, "add", 1)
    assert "HX-Reswap" not in response
    assert response.content.decode().startswith('<section id="deck-panel"') or (
        'id="deck-panel"' in response.content.decode()
    )


def test_a_refused_plus_shows_the_whole_panel_saying_why(client, dana):
    deck, cards = big_deck(client)
    response = step(client, deck, cards[0], "add", 1)  # stale: the import made version 2
    html = response.content.decode()
    assert "The deck changed elsewhere" in html and 'data-conflict="true"' in html


def test_the_one_read_counts_a_pools_copies_as_the_collection_selectors_do(client, dana):
    deck, cards = big_deck(client, count=4)
    friend = User.objects.create_user("friend", password="x-Long-pass-9")
    CollectionCard.objects.create(owner=dana, card=cards[0], quantity=2)
    CollectionCard.objects.create(owner=friend, card=cards[0], quantity=1)
    CollectionCard.objects.create(owner=friend, card=cards[3], quantity=5)
    ids = {c.short_id: c.pk for c in cards}
    read = deck_for_edit(deck_id=deck.share_key, user=dana, card=cards[3].short_id)
    assert (
        read.owned
        == owned_by_short_id(dana, ids)
        == {
            cards[0].short_id: 2,
            cards[1].short_id: 0,
            cards[2].short_id: 0,
            cards[3].short_id: 0,
        }
    )
    pool = Pool.objects.create()
    for user in (dana, friend):
        PoolMember.objects.create(pool=pool, user=user, accepted_at="2026-01-01T00:00Z")
    read = deck_for_edit(deck_id=deck.share_key, user=dana, card=cards[3].short_id)
    assert read.owned == owned_by_short_id(dana, ids)
    assert read.owned[cards[0].short_id] == 3 and read.owned[cards[3].short_id] == 5


def test_no_one_else_reads_a_deck_for_editing(client, dana):
    deck, _ = big_deck(client, count=2)
    other = User.objects.create_user("other", password="x-Long-pass-9")
    assert deck_for_edit(deck_id=deck.share_key, user=other) is None
    client.force_login(other)
    response = client.post(
        f"/decks/{deck.share_key}/edit/card/", {"card": "x", "action": "add", "version": 2}
    )
    assert response.status_code == 404


def test_the_one_read_brings_the_deck_as_the_orm_reads_it(client, dana):
    deck, _ = big_deck(client, count=3)
    read = deck_for_edit(deck_id=deck.share_key, user=dana)
    orm = Deck.objects.select_related("owner", "game", "faction").get(pk=deck.pk)
    fields = [f.attname for f in Deck._meta.concrete_fields]
    assert [getattr(read.deck, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert (read.deck.owner, read.deck.game, read.deck.faction) == (
        orm.owner,
        orm.game,
        orm.faction,
    )
    assert read.deck.game.engine is orm.game.engine


def test_a_plus_or_minus_finds_the_panel_drawn_for_its_version_only_while_nothing_else_changed(
    client, dana
):
    deck, cards = big_deck(client, count=4)
    read = deck_for_edit(deck_id=deck.share_key, user=dana)
    choices = Choices()
    drawn = edit_core(read.deck, choices, read.intake, read.owned)
    assert edit_core(read.deck, choices, read.intake, read.owned) is drawn
    # Copies held change without a new version: the panel is drawn again.
    held = {**read.owned, cards[0].short_id: 3}
    again = edit_core(read.deck, choices, read.intake, held)
    assert again is not drawn and again.owned[cards[0].short_id] == 3
    assert edit_core(read.deck, Choices(group="cost"), read.intake, held) is not again


def test_a_row_sent_after_a_plus_keeps_its_key_stats(client, dana):
    deck, cards = big_deck(client)
    page = client.get(f"/decks/{deck.share_key}/edit/").content.decode()
    anchor = f"row-{cards[0].short_id}-main"
    stats = re.search(rf'id="{anchor}".*?(<span class="key-stats">.*?</span></span>)', page, re.S)
    assert stats is not None
    html = step(client, deck, cards[0], "add", 2).content.decode()
    assert stats[1] in html
    # A card new to the deck comes in its group, its row with its stats too.
    html = step(client, deck, cards[-1], "add", 3).content.decode()
    row = re.search(rf'id="row-{cards[-1].short_id}-main".*?</li>', html, re.S)
    assert row is not None and 'class="key-stats"' in row[0]
