"""A deck against a collection: the copies the viewer lacks (per printing, pooled when they
pooled), built decks taking copies and competing for them, and /decks/ narrowed to the decks
a collection can build."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from cardsite.collection.models import CollectionCard, Pool, PoolMember
from decks.models import Deck
from decks.reading.owning import built_conflicts, deck_missing, missing_text
from decks.services import Intake, RequestedCard, deck_create
from decks.services.building import MAX_BUILT_DECKS, deck_build, deck_unbuild
from engines.errors import InputError

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"


def cards(n):
    return list(
        Card.objects.filter(game__slug=ORION, card_set__is_official=False).order_by("id")[:n]
    )


def make(owner, name, picks, visibility="public"):
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug="constructed",
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(n, None, c.short_id) for c, n in picks)),
    )


def own(user, card, quantity):
    CollectionCard.objects.create(owner=user, card=card, quantity=quantity)


def pool_of(*users, invited=()):
    pool = Pool.objects.create(name="Tuesday group", created_by=users[0])
    for user in users:
        PoolMember.objects.create(pool=pool, user=user, accepted_at=timezone.now())
    for user in invited:
        PoolMember.objects.create(pool=pool, user=user)
    return pool


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="x-Long-pass-9")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="x-Long-pass-9")


def lacking(missing):
    return {card.pk: n for card, n in missing.lines}


def test_a_collection_holding_every_copy_lacks_nothing(alice):
    a, b = cards(2)
    deck = make(alice, "Full", [(a, 2), (b, 1)])
    own(alice, a, 3)
    own(alice, b, 1)
    missing = deck_missing(deck=deck, viewer=alice)
    assert missing.lines == [] and missing.buildable


def test_the_copies_lacking_are_counted_per_printing(alice):
    a, b = cards(2)
    deck = make(alice, "Half", [(a, 3), (b, 2)])
    own(alice, a, 1)
    missing = deck_missing(deck=deck, viewer=alice)
    assert lacking(missing) == {a.pk: 2, b.pk: 2}
    assert missing.total == 4 and not missing.buildable


def test_another_viewer_sees_what_their_own_collection_lacks(alice, bob):
    (a,) = cards(1)
    deck = make(alice, "Public", [(a, 2)])
    own(alice, a, 2)
    own(bob, a, 1)
    assert lacking(deck_missing(deck=deck, viewer=bob)) == {a.pk: 1}


def test_a_pool_of_accepted_members_counts_as_one_collection(alice, bob):
    (a,) = cards(1)
    deck = make(alice, "Pooled", [(a, 3)])
    own(alice, a, 1)
    own(bob, a, 2)
    pool_of(alice, bob)
    assert deck_missing(deck=deck, viewer=alice).buildable


def test_an_invited_member_who_has_not_accepted_is_not_counted(alice, bob):
    (a,) = cards(1)
    deck = make(alice, "Invited", [(a, 3)])
    own(alice, a, 1)
    own(bob, a, 2)
    pool_of(alice, invited=[bob])
    assert lacking(deck_missing(deck=deck, viewer=alice)) == {a.pk: 2}


def test_the_missing_list_is_decklist_text_naming_set_and_number(alice):
    (a,) = cards(1)
    deck = make(alice, "Text", [(a, 2)])
    text = missing_text(deck=deck, missing=deck_missing(deck=deck, viewer=alice))
    assert f"2 {a.name} ({a.card_set.code}) {a.number}" in text


def test_a_built_deck_cannot_count_copies_another_built_deck_takes(alice):
    (a,) = cards(1)
    first = make(alice, "First", [(a, 2)])
    second = make(alice, "Second", [(a, 2)])
    own(alice, a, 3)
    deck_build(deck=first, user=alice)
    # Unbuilt, the whole collection counts for it, and the page says what built decks hold.
    unbuilt = deck_missing(deck=second, viewer=alice)
    assert unbuilt.buildable and unbuilt.held == {a.pk: 2}
    deck_build(deck=second, user=alice)
    assert lacking(deck_missing(deck=second, viewer=alice)) == {a.pk: 1}


def test_two_built_decks_needing_more_than_owned_are_a_conflict_naming_both(alice):
    a, b = cards(2)
    first = make(alice, "First", [(a, 3), (b, 1)])
    second = make(alice, "Second", [(a, 2), (b, 1)])
    own(alice, a, 3)
    own(alice, b, 2)
    deck_build(deck=first, user=alice)
    deck_build(deck=second, user=alice)
    (conflict,) = built_conflicts(user=alice)
    assert (conflict.card, conflict.owned, conflict.needed) == (a, 3, 5)
    assert [(d.name, n) for d, n in conflict.decks] == [("First", 3), ("Second", 2)]


def test_pool_members_built_decks_compete_for_the_pools_copies(alice, bob):
    (a,) = cards(1)
    mine = make(alice, "Mine", [(a, 2)])
    theirs = make(bob, "Theirs", [(a, 2)])
    own(alice, a, 1)
    own(bob, a, 2)
    pool_of(alice, bob)
    deck_build(deck=mine, user=alice)
    deck_build(deck=theirs, user=bob)
    (conflict,) = built_conflicts(user=alice)
    assert (conflict.owned, conflict.needed) == (3, 4)
    assert {d.name for d, _ in conflict.decks} == {"Mine", "Theirs"}
    assert [c.card for c in built_conflicts(user=bob)] == [a]


def test_unbuilding_a_deck_frees_its_copies(alice):
    (a,) = cards(1)
    first = make(alice, "First", [(a, 2)])
    second = make(alice, "Second", [(a, 2)])
    own(alice, a, 2)
    deck_build(deck=first, user=alice)
    deck_build(deck=second, user=alice)
    assert built_conflicts(user=alice)
    deck_unbuild(deck=first, user=alice)
    assert not built_conflicts(user=alice)
    assert deck_missing(deck=second, viewer=alice).buildable


def test_a_deleted_built_deck_takes_no_copies(alice):
    (a,) = cards(1)
    first = make(alice, "First", [(a, 2)])
    second = make(alice, "Second", [(a, 2)])
    own(alice, a, 2)
    deck_build(deck=first, user=alice)
    deck_build(deck=second, user=alice)
    Deck.objects.filter(pk=first.pk).update(deleted_at=timezone.now())
    assert not built_conflicts(user=alice)


def test_only_the_owner_may_build_or_unbuild_a_deck(alice, bob):
    deck = make(alice, "Hers", [(cards(1)[0], 1)])
    with pytest.raises(InputError):
        deck_build(deck=deck, user=bob)
    with pytest.raises(InputError):
        deck_unbuild(deck=deck, user=bob)
    assert Deck.objects.get(pk=deck.pk).built_at is None


def test_building_past_the_limit_is_refused_naming_it(alice):
    (a,) = cards(1)
    deck = make(alice, "One too many", [(a, 1)])
    Deck.objects.bulk_create(
        [
            Deck(
                owner=alice,
                game=deck.game,
                format="constructed",
                name=f"d{i}",
                share_key=f"built{i}",
                built_at=timezone.now(),
            )
            for i in range(MAX_BUILT_DECKS)
        ]
    )
    with pytest.raises(InputError, match=str(MAX_BUILT_DECKS)):
        deck_build(deck=deck, user=alice)


def test_building_never_fails_for_lack_of_cards_and_keeps_the_version(alice):
    deck = make(alice, "Empty shelf", [(cards(1)[0], 3)])
    before = (deck.version, Deck.objects.get(pk=deck.pk).updated_at)
    deck_build(deck=deck, user=alice)
    stored = Deck.objects.get(pk=deck.pk)
    assert stored.built_at is not None and (stored.version, stored.updated_at) == before


# --- pages ---------------------------------------------------------------------------------


def test_the_deck_page_tells_the_viewer_what_their_collection_lacks(client, alice):
    a, b = cards(2)
    deck = make(alice, "Shown", [(a, 3), (b, 1)])
    own(alice, a, 1)
    client.force_login(alice)
    html = client.get(deck.get_absolute_url()).content.decode()
    assert "Your collection lacks <strong>3</strong> cards for this deck" in html
    assert f"/decks/{deck.share_key}/missing.txt" in html


def test_an_anonymous_viewer_gets_a_sign_in_hint_and_no_collection(client, alice):
    deck = make(alice, "Shown", [(cards(1)[0], 3)])
    html = client.get(deck.get_absolute_url()).content.decode()
    assert "Sign in</a> to see which of these cards your collection lacks" in html
    assert "Mark as built" not in html


def test_the_deck_page_names_the_decks_competing_for_a_card(client, alice):
    (a,) = cards(1)
    first = make(alice, "First", [(a, 3)])
    second = make(alice, "Second", [(a, 2)])
    own(alice, a, 3)
    deck_build(deck=first, user=alice)
    deck_build(deck=second, user=alice)
    client.force_login(alice)
    html = client.get(first.get_absolute_url()).content.decode()
    text = re.sub(r"<[^>]+>", "", html)
    assert f"{a.name}: you own 3, built decks need 5 (2 short). Competes with Second (2)." in text
    assert '<span class="badge built">Built</span>' in html


def test_the_build_button_builds_and_unbuilds_without_javascript(client, alice):
    deck = make(alice, "Button", [(cards(1)[0], 1)])
    client.force_login(alice)
    response = client.post(f"/decks/{deck.share_key}/build/", {"action": "build"})
    assert response.status_code == 302 and response["Location"].endswith("#collection")
    assert Deck.objects.get(pk=deck.pk).built_at is not None
    client.post(f"/decks/{deck.share_key}/build/", {"action": "unbuild"})
    assert Deck.objects.get(pk=deck.pk).built_at is None
    assert client.post(f"/decks/{deck.share_key}/build/", {"action": "²"}).status_code == 400


def test_someone_elses_deck_cannot_be_built_from_its_page(client, alice, bob):
    deck = make(alice, "Hers", [(cards(1)[0], 1)])
    client.force_login(bob)
    assert client.post(f"/decks/{deck.share_key}/build/", {"action": "build"}).status_code == 404
    assert Deck.objects.get(pk=deck.pk).built_at is None


def test_the_missing_list_downloads_as_a_private_text_file(client, alice):
    (a,) = cards(1)
    deck = make(alice, "Download", [(a, 2)])
    client.force_login(alice)
    response = client.get(f"/decks/{deck.share_key}/missing.txt")
    assert response.status_code == 200
    assert 'filename="missing-download.txt"' in response["Content-Disposition"]
    assert response["Cache-Control"] == "private, no-cache"
    assert f"2 {a.name}" in response.content.decode()


def test_the_builder_shows_the_owned_copies_and_what_is_lacking(client, alice):
    a, b = cards(2)
    deck = make(alice, "Building", [(a, 2), (b, 1)])
    own(alice, a, 1)
    own(alice, b, 4)
    client.force_login(alice)
    html = client.get(f"/decks/{deck.share_key}/edit/").content.decode()
    assert '<span class="owned short"' in html and "own 4</span>" in html
    assert "Your collection lacks <strong>1</strong> card for this deck" in html


def test_the_builders_results_read_the_collection_once_however_many_they_are(client, alice):
    a, b = cards(2)
    deck = make(alice, "Searching", [(a, 1)])
    own(alice, b, 7)
    client.force_login(alice)
    url = f"/decks/{deck.share_key}/edit/"

    def search(q):
        with CaptureQueriesContext(connection) as queries:
            html = client.get(url, {"q": q}, HTTP_HX_REQUEST="true").content.decode()
        return html, len(queries)

    search("a")
    one, few = search(f'!"{b.name}"')
    many, more = search("e")
    # Each result carries the owner's + and - for their collection, with its count.
    assert 'title="Copies in your collection">\N{MULTIPLICATION SIGN}7</span>' in one
    assert many.count('class="owned compact"') > 10
    assert few == more


def test_a_results_plus_adds_a_copy_to_the_owners_collection_and_returns_to_the_search(
    client, alice
):
    a, b = cards(2)
    deck = make(alice, "Collecting", [(a, 1)])
    own(alice, b, 2)
    client.force_login(alice)
    html = client.get(f"/decks/{deck.share_key}/edit/", {"q": f'!"{b.name}"'}).content.decode()
    back = re.search(rf'action="(/collection/[^"]*{b.short_id}[^"]*)"', html)
    next_ = re.search(r'name="next" value="([^"]*)"', html[html.index('class="owned compact"') :])
    assert back and next_, "the result's own + and - form"
    response = client.post(back[1], {"step": "1", "next": next_[1].replace("&amp;", "&")})
    assert response.status_code == 302
    assert response["Location"].startswith(f"/decks/{deck.share_key}/edit/?q=")
    assert CollectionCard.objects.get(owner=alice, card=b).quantity == 3
    assert not deck.entries.filter(card=b).exists(), "the deck itself is untouched"


# --- /decks/?buildable=1 -------------------------------------------------------------------


def listed(response):
    return re.findall(
        r'<h2 class="deck-name"><a href="[^"]+">([^<]+)</a>', response.content.decode()
    )


def test_the_public_list_narrows_to_decks_the_collection_can_build(client, alice, bob):
    a, b = cards(2)
    make(bob, "Buildable", [(a, 2)])
    make(bob, "Needs more", [(a, 3)])
    make(bob, "Other card", [(b, 1)])
    own(alice, a, 2)
    client.force_login(alice)
    assert listed(client.get("/decks/?buildable=1")) == ["Buildable"]
    assert len(listed(client.get("/decks/"))) == 3


def test_a_card_in_two_zones_counts_its_copies_together(client, alice, bob):
    (a,) = cards(1)
    deck = make(bob, "Two zones", [(a, 2)])
    deck.entries.create(card=a, quantity=1, zone="sideboard-for-test")
    own(alice, a, 2)
    client.force_login(alice)
    assert listed(client.get("/decks/?buildable=1")) == []


def test_the_buildable_filter_counts_a_pool_and_costs_a_fixed_number_of_queries(
    client, alice, bob, django_assert_max_num_queries
):
    (a,) = cards(1)
    for i in range(30):
        make(bob, f"Deck {i}", [(a, 3)])
    own(alice, a, 1)
    own(bob, a, 2)
    pool_of(alice, bob)
    client.force_login(alice)
    client.get("/decks/?buildable=1")
    # One more than before key cards were shown: the page's entries, for counts and faces.
    with django_assert_max_num_queries(13):
        response = client.get("/decks/?buildable=1&page=2")
    assert len(listed(response)) == 5


def test_anonymous_buildable_is_ignored_with_a_note(client, alice):
    make(alice, "Anyones", [(cards(1)[0], 1)])
    response = client.get("/decks/?buildable=1")
    assert response.status_code == 200 and listed(response) == ["Anyones"]
    assert "Sign in to list only the decks your collection can build." in response.content.decode()


@pytest.mark.parametrize("value", ["2", "yes", "²", "1" * 50])
def test_a_buildable_value_other_than_0_or_1_is_a_400_naming_it(client, value):
    response = client.get("/decks/", {"buildable": value})
    assert response.status_code == 400 and "buildable is 1" in response.content.decode()


def test_the_deck_page_reads_the_collection_in_the_same_queries_for_any_deck_size(client, alice):
    small_cards, big_cards = cards(1), cards(25)
    small = make(alice, "Small", [(c, 1) for c in small_cards])
    big = make(alice, "Big", [(c, 3) for c in big_cards])
    for deck in (small, big):
        deck_build(deck=deck, user=alice)
    for card in big_cards[:10]:
        own(alice, card, 2)
    client.force_login(alice)

    def queries(deck):
        client.get(deck.get_absolute_url())
        with CaptureQueriesContext(connection) as captured:
            assert client.get(deck.get_absolute_url()).status_code == 200
        return len(captured)

    assert queries(small) == queries(big)
