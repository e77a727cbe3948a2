"""The History tab: each version's changes in words with its legality then, two versions side
by side, reverting and notes; a private deck's history is nobody else's."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card, Game
from decks.history.pages import NUMBER_MAX, PER_PAGE
from decks.models import VERSION_MAX, Deck, DeckVersion
from decks.services import (
    Intake,
    RequestedCard,
    deck_branch,
    deck_checkpoint,
    deck_create,
    deck_set_quantity,
    deck_update,
    game_snapshot,
)
from decks.services.history import MAYBE, NOTE_MAX, deck_state, state_at

pytestmark = pytest.mark.django_db

GAME = "conquest-of-orion"
PASSWORD = "x-Long-pass-9"


def cards(count):
    return list(
        Card.objects.filter(game__slug=GAME, card_set__is_official=False).order_by("name")[:count]
    )


def new_deck(owner, picked, visibility="public", **kwargs):
    game = Game.objects.get(slug=GAME)
    return deck_create(
        owner=owner,
        game=game,
        format_slug=kwargs.pop("format_slug", "constructed"),
        name="Orion history",
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in picked)),
        **kwargs,
    )


def add(deck, card, step=1, zone=None):
    """One builder edit as a version of its own: one author's edits in a row fold into one
    version, so each is closed by a checkpoint (these pages are about versions, not folds)."""
    deck = deck_set_quantity(
        deck=deck,
        expected_version=deck.version,
        card=card.short_id,
        step=step,
        zone=zone,
        author=deck.owner,
    )
    deck_checkpoint(deck=deck, author=deck.owner, note="", expected_version=deck.version)
    return deck


def text_of(response):
    """The page's text without tags or runs of white space."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" )", ")"))


def version_block(response, number):
    html = response.content.decode()
    start = html.index(f'id="version-{number}"')
    end = html.find('<li class="version', start)
    text = re.sub(r"<[^>]+>", " ", html[start : end if end > 0 else None])
    return unescape(re.sub(r"\s+", " ", text))


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("historian", password=PASSWORD)


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user("stranger", password=PASSWORD)


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def history_url(deck):
    return f"/decks/{deck.share_key}/history/"


def test_each_version_shows_what_changed_since_the_one_before(client, owner):
    a, b, c = cards(3)
    deck = new_deck(owner, [a, b])
    add(deck, a)  # 2: one more a
    add(deck, a)  # 3: and another
    add(deck, b, step=-1)  # 4: b out
    add(deck, c)  # 5: c in
    response = client.get(history_url(deck))
    assert response.status_code == 200
    assert f"+1 {a.name} (1 → 2)" in version_block(response, 2)
    assert f"+1 {a.name} (2 → 3)" in version_block(response, 3)
    assert "Changed" in version_block(response, 3)
    assert f"\u22121 {b.name}" in version_block(response, 4)
    assert "Removed" in version_block(response, 4)
    assert f"+1 {c.name}" in version_block(response, 5)
    assert "Added" in version_block(response, 5)
    # Newest first, each with its time and author; card names link to the cards.
    html = response.content.decode()
    assert html.index('id="version-5"') < html.index('id="version-1"')
    # To the second, with the offset: the Nu checker refuses six-digit fractions.
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00">', html)
    assert "by historian" in version_block(response, 5)
    assert f'href="{c.get_absolute_url()}"' in html


def test_each_version_shows_its_legality_in_the_format_it_was_in(client, owner):
    (a,) = cards(1)
    deck = new_deck(owner, [a])
    deck_update(deck=deck, expected_version=1, changes={"format": "limited"}, author=owner)
    response = client.get(history_url(deck))
    assert "not legal in Constructed" in version_block(response, 1)
    assert "not legal in Limited" in version_block(response, 2)
    assert re.search(r"not legal in Limited: \d+ problems?", version_block(response, 2))


def test_setting_changes_are_said_in_words_and_a_description_only_said_to_change(client, owner):
    deck = new_deck(owner, cards(1), description="Old words")
    deck_update(
        deck=deck,
        expected_version=1,
        changes={"format": "limited", "description": "A whole new essay " * 20, "name": "Renamed"},
        author=owner,
    )
    block = version_block(client.get(history_url(deck)), 2)
    assert "Format: Constructed → Limited" in block
    assert "Name: Orion history → Renamed" in block
    assert "Description changed" in block
    assert "whole new essay" not in block


def test_planned_cards_are_marked_as_planned(client, owner):
    a, b = cards(2)
    deck = new_deck(owner, [a])
    add(deck, b, zone=MAYBE)
    assert f"+1 {b.name} (planned)" in version_block(client.get(history_url(deck)), 2)


def test_a_new_deck_says_created_and_a_variant_where_it_branched_from(client, owner):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    variant = deck_branch(deck=deck, owner=owner, name="Orion variant")
    assert "Created" in version_block(client.get(history_url(deck)), 1)
    first = version_block(client.get(history_url(variant)), 1)
    assert "Branched from version 2 of Orion history" in first


def test_a_branch_of_a_deck_the_reader_may_not_see_does_not_name_it(client, owner, other):
    deck = new_deck(owner, cards(2), visibility="private")
    copy = deck_branch(deck=deck, owner=other)
    Deck.objects.filter(pk=copy.pk).update(visibility="public")
    first = version_block(client.get(history_url(copy)), 1)
    assert "Branched from another deck" in first
    assert deck.share_key not in client.get(history_url(copy)).content.decode()


def test_a_history_that_began_late_says_earlier_versions_were_not_kept(client, owner):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    add(deck, cards(3)[2])
    # As migration 0006 left a deck saved before history was kept: one baseline version.
    state = deck_state(deck)
    DeckVersion.objects.filter(deck=deck).exclude(number=3).delete()
    DeckVersion.objects.filter(deck=deck, number=3).update(
        changes=[[s, z, 0, q] for (s, z), q in sorted(state.cards.items())],
        snapshot={
            "cards": [[s, z, q] for (s, z), q in sorted(state.cards.items())],
            "settings": dict(state.settings),
        },
    )
    response = client.get(history_url(deck))
    assert "History begins here: earlier versions were not kept" in version_block(response, 3)
    assert 'id="version-1"' not in response.content.decode()


def test_the_deck_page_has_tabs_and_its_version_links_to_the_history(client, owner):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    html = client.get(deck.get_absolute_url()).content.decode()
    assert re.search(r'<a href="/decks/[\w-]+/"\s+aria-current="page">Deck</a>', html)
    assert f'<a href="{history_url(deck)}">version 2</a>' in html
    assert re.search(r">History <span class=\"tab-count\">2<", html)
    history = client.get(history_url(deck)).content.decode()
    assert re.search(r'href="/decks/[\w-]+/history/"\s+aria-current="page">History', history)


def test_a_private_decks_history_and_diffs_are_404_to_everyone_but_its_owner(client, owner, other):
    deck = new_deck(owner, cards(2), visibility="private")
    add(deck, cards(3)[2])
    urls = [
        history_url(deck),
        f"{history_url(deck)}diff/?from=1&to=2",
        f"{history_url(deck)}diff/?from=1",
    ]
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(other)
    for url in urls:
        assert client.get(url).status_code == 404, url
    revert = client.post(f"{history_url(deck)}revert/", {"number": 1, "version": 2})
    note = client.post(f"{history_url(deck)}1/note/", {"note": "mine now"})
    assert revert.status_code == note.status_code == 404
    client.force_login(owner)
    for url in urls:
        assert client.get(url).status_code == 200, url
    deck.refresh_from_db()
    assert deck.version == 2 and DeckVersion.objects.get(deck=deck, number=1).note == ""


def test_an_unlisted_decks_history_is_readable_by_its_link(client, owner):
    deck = new_deck(owner, cards(2), visibility="unlisted")
    assert client.get(history_url(deck)).status_code == 200


def test_revert_makes_a_new_version_equal_to_the_old_one(signed_in, owner):
    a, b, c = cards(3)
    deck = new_deck(owner, [a, b])
    add(deck, c)
    add(deck, a, step=-1)
    deck_update(deck=deck, expected_version=3, changes={"format": "limited"}, author=owner)
    response = signed_in.post(
        f"{history_url(deck)}revert/", {"number": 1, "version": 4}, follow=True
    )
    deck.refresh_from_db()
    assert deck.version == 5
    assert deck_state(deck) == state_at(deck, 1)
    assert "Reverted to version 1: this is version 5." in text_of(response)
    # Nothing was rewritten: every version is still there, the new one saying what it did.
    assert list(DeckVersion.objects.filter(deck=deck).values_list("number", flat=True)) == [
        5,
        4,
        3,
        2,
        1,
    ]
    assert DeckVersion.objects.get(deck=deck, number=5).note == "Reverted to version 1"
    assert "Format: Limited → Constructed" in version_block(response, 5)


def test_reverting_to_a_version_equal_to_the_current_one_writes_nothing_and_says_so(
    signed_in, owner
):
    a, b = cards(2)
    deck = new_deck(owner, [a])
    add(deck, b)
    add(deck, b, step=-1)
    response = signed_in.post(
        f"{history_url(deck)}revert/", {"number": 1, "version": 3}, follow=True
    )
    deck.refresh_from_db()
    assert deck.version == 3
    assert "Version 1 is the same as the current version: nothing to revert." in text_of(response)


def test_only_the_owner_can_revert(client, owner, other):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    client.force_login(other)
    # They may read it, and compare its versions, but see no Revert and cannot post one.
    page = client.get(history_url(deck)).content.decode()
    assert "Revert to this version" not in page and "Add a note" not in page
    assert (
        client.post(f"{history_url(deck)}revert/", {"number": 1, "version": 2}).status_code == 404
    )
    client.logout()
    response = client.post(f"{history_url(deck)}revert/", {"number": 1, "version": 2})
    assert response.status_code == 302 and "/login/" in response["Location"]
    deck.refresh_from_db()
    assert deck.version == 2


def test_the_owner_sees_revert_on_every_version_but_the_current_one(signed_in, owner):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    response = signed_in.get(history_url(deck))
    assert "Revert to this version" in version_block(response, 1)
    assert "Revert to this version" not in version_block(response, 2)
    assert 'name="version" value="2"' in version_block(response, 1) or (
        'name="version" value="2"' in response.content.decode()
    )


@pytest.mark.parametrize("version", ["2", "\u00b2", "x", "9" * 50])
def test_a_revert_from_a_page_of_another_version_is_refused_as_stale(signed_in, owner, version):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    add(deck, cards(3)[2])
    response = signed_in.post(
        f"{history_url(deck)}revert/", {"number": 1, "version": version}, follow=True
    )
    deck.refresh_from_db()
    assert deck.version == 3
    assert "Nothing was reverted" in text_of(response)


def test_a_stale_revert_is_refused_and_says_so(signed_in, owner):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    # The page was loaded at version 2; the deck moved on to 3 in another tab.
    add(deck, cards(3)[2])
    response = signed_in.post(
        f"{history_url(deck)}revert/", {"number": 1, "version": 2}, follow=True
    )
    deck.refresh_from_db()
    assert deck.version == 3
    assert "Nothing was reverted: the deck changed since this page was loaded" in text_of(response)
    assert "now at version 3" in text_of(response)


def test_a_revert_to_a_card_that_left_the_catalogue_names_it(signed_in, owner):
    a, b = cards(2)
    deck = new_deck(owner, [a])
    add(deck, b)
    # Version 1 held `a`; take it out of the deck, then out of the catalogue.
    add(deck, a, step=-1)
    Card.objects.filter(pk=a.pk).delete()
    game_snapshot(GAME)
    response = signed_in.post(
        f"{history_url(deck)}revert/", {"number": 1, "version": 3}, follow=True
    )
    deck.refresh_from_db()
    assert deck.version == 3
    text = text_of(response)
    assert "Version 1 cannot be brought back:" in text and a.short_id in text


@pytest.mark.parametrize(
    ("post", "status", "says"),
    [
        ({"number": "one", "version": 2}, 400, "number is a whole number from 1 to 2,147,483,647"),
        ({"number": "2147483648", "version": 2}, 400, "number is a whole number from 1 to 2,1"),
        ({"number": "9" * 30, "version": 2}, 400, "number is a whole number from 1 to 2,1"),
        ({"number": "9" * 5000, "version": 2}, 400, "number is a whole number from 1"),
        ({"number": "0", "version": 2}, 400, "number is a whole number from 1"),
        ({"number": "\u00b2", "version": 2}, 400, "number is a whole number from 1"),
        ({"number": "\uff11", "version": 2}, 400, "number is a whole number from 1"),
        ({"number": "2", "version": 2}, 400, "The deck is at version 2 already."),
        ({"number": "77", "version": 2}, 404, "Version 77 of this deck was never kept."),
        ({"number": "2147483647", "version": 2}, 404, "Version 2147483647 of this deck was never"),
    ],
)
def test_a_revert_to_no_kept_version_is_refused_naming_why(signed_in, owner, post, status, says):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    response = signed_in.post(f"{history_url(deck)}revert/", post)
    assert response.status_code == status
    assert says in text_of(response)
    deck.refresh_from_db()
    assert deck.version == 2


def test_a_note_is_saved_on_its_version_and_shown(signed_in, owner):
    deck = new_deck(owner, cards(2))
    add(deck, cards(3)[2])
    response = signed_in.post(
        f"{history_url(deck)}1/note/", {"note": "  swapped the Celestial "}, follow=True
    )
    assert DeckVersion.objects.get(deck=deck, number=1).note == "swapped the Celestial"
    assert "swapped the Celestial" in version_block(response, 1)
    assert "Edit the note" in version_block(response, 1)
    assert response.redirect_chain[-1][0].endswith("?page=1#version-1")


def test_a_note_past_its_limit_is_refused_in_the_page_and_nothing_saved(signed_in, owner):
    deck = new_deck(owner, cards(2))
    response = signed_in.post(f"{history_url(deck)}1/note/", {"note": "x" * (NOTE_MAX + 1)})
    assert response.status_code == 400
    assert f"A version's note is at most {NOTE_MAX} characters." in text_of(response)
    assert 'aria-invalid="true"' in response.content.decode()
    assert DeckVersion.objects.get(deck=deck, number=1).note == ""


def test_a_note_on_a_version_never_kept_is_404(signed_in, owner):
    deck = new_deck(owner, cards(2))
    for number in (5, NUMBER_MAX + 1, VERSION_MAX):
        assert (
            signed_in.post(f"{history_url(deck)}{number}/note/", {"note": "x"}).status_code == 404
        )


@pytest.mark.parametrize("number", ["0", str(VERSION_MAX + 1), "9" * 30, "9" * 5000])
def test_a_note_on_a_version_past_the_limit_is_a_400_naming_it(signed_in, owner, number):
    deck = new_deck(owner, cards(2))
    response = signed_in.post(f"{history_url(deck)}{number}/note/", {"note": "x"})
    assert response.status_code == 400
    assert "number is a whole number from 1 to 2,147,483,647" in text_of(response)
    assert not DeckVersion.objects.filter(deck=deck).exclude(note="").exists()


def history_queries(client, deck):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(history_url(deck))
    assert response.status_code == 200
    return len(queries), response


def test_a_page_of_twenty_versions_costs_the_same_queries_as_a_page_of_three(client, owner):
    picked = cards(4)
    small = new_deck(owner, picked[:1])
    large = new_deck(owner, picked[:1])
    add(small, picked[1])
    add(small, picked[2])
    # 60 versions: the page of the newest 20 starts past a keyframe (version 50).
    for i in range(59):
        add(large, picked[1], step=1 if i % 2 == 0 else -1)
    game_snapshot(GAME)
    client.get(history_url(small))
    client.get(history_url(large))
    small_count, _ = history_queries(client, small)
    large_count, response = history_queries(client, large)
    assert large_count == small_count <= 8
    assert response.content.decode().count('<li class="version') == PER_PAGE
    # The second page starts from the first keyframe: still the same cost, and each
    # version's legality is that of its own state.
    with CaptureQueriesContext(connection) as queries:
        second = client.get(history_url(large), {"page": 2})
    assert len(queries) == small_count
    assert large.version == 60 and 'id="version-40"' in second.content.decode()


def test_a_pages_versions_are_rebuilt_exactly_as_each_version_alone(owner):
    from decks.history.pages import states_of

    picked = cards(3)
    deck = new_deck(owner, picked[:1])
    for i in range(64):
        add(deck, picked[1 + i % 2], step=1 if i % 4 < 2 else -1)
    numbers = list(range(1, deck.version + 1))
    with CaptureQueriesContext(connection) as queries:
        states = states_of(deck, numbers[40:60])
    assert len(queries) == 1
    assert states == {n: state_at(deck, n) for n in numbers[40:60]}
    assert states_of(deck, numbers) == {n: state_at(deck, n) for n in numbers}


def test_the_readme_states_the_history_limits():
    from tests.hostile.test_deck_filter_limits import readme_limits

    limits = readme_limits()
    assert f"{PER_PAGE} versions a page" in limits
    assert f"`page` 1 to {NUMBER_MAX:,}" in limits
    assert f"1 to {VERSION_MAX:,} (`VERSION_MAX`), and a version that was kept" in limits
    assert f"at most **{NOTE_MAX}** characters (`NOTE_MAX`" in limits
