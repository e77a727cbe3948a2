"""A deck's variants on the site: the list a reader may see, a new variant (or a copy of
someone else's deck), a variant's page showing its parent and how it differs from it now, and
My decks naming each variant's parent, never a parent its reader may not see."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cardsite.catalogue.models import Card, Game
from decks.models import Deck
from decks.services import (
    Intake,
    RequestedCard,
    deck_branch,
    deck_create,
    deck_delete,
    deck_set_quantity,
    deck_update,
    game_snapshot,
)
from decks.services.history import MAYBE

pytestmark = pytest.mark.django_db

GAME = "conquest-of-orion"
PASSWORD = "x-Long-pass-9"


@pytest.fixture
def cards():
    return list(
        Card.objects.filter(game__slug=GAME, card_set__is_official=False).order_by("name")[:12]
    )


@pytest.fixture
def users(django_user_model):
    return {
        name: django_user_model.objects.create_user(name, password=PASSWORD)
        for name in ("owner", "stranger")
    }


def make(owner, cards, name="Base", visibility="public", quantity=2):
    game = Game.objects.get(slug=GAME)
    return deck_create(
        owner=owner,
        game=game,
        format_slug=game.engine.formats[0].slug,
        name=name,
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(quantity, None, c.short_id) for c in cards)),
    )


def variants_url(deck):
    return reverse("decks:variants", args=[deck.share_key])


def test_the_variants_page_lists_public_variants_and_the_readers_own_private_ones(
    client, users, cards
):
    base = make(users["owner"], cards[:4])
    public = deck_branch(deck=base, owner=users["owner"], name="vs. aggro")
    hidden = deck_branch(deck=base, owner=users["owner"], name="Secret tech")
    deck_update(deck=hidden, expected_version=None, changes={"visibility": "private"}, author=None)
    client.force_login(users["stranger"])
    page = client.get(variants_url(base)).content.decode()
    assert "vs. aggro" in page and "Secret tech" not in page
    assert "branched from" in page.lower() and f"version {base.version}" in page
    client.force_login(users["owner"])
    page = client.get(variants_url(base)).content.decode()
    assert "vs. aggro" in page and "Secret tech" in page
    assert public.get_absolute_url() in page


def test_a_private_decks_variants_page_is_404_to_everyone_but_its_owner(client, users, cards):
    base = make(users["owner"], cards[:4], visibility="private")
    assert client.get(variants_url(base)).status_code == 404
    assert client.post(variants_url(base), {"name": "Mine now"}).status_code == 404
    client.force_login(users["stranger"])
    assert client.get(variants_url(base)).status_code == 404
    assert client.post(variants_url(base), {"name": "Mine now"}).status_code == 404
    assert not Deck.objects.filter(owner=users["stranger"]).exists()
    client.force_login(users["owner"])
    assert client.get(variants_url(base)).status_code == 200


def test_an_owner_makes_a_named_variant_that_keeps_the_decks_visibility_and_opens_its_builder(
    client, users, cards
):
    base = make(users["owner"], cards[:4], visibility="unlisted")
    client.force_login(users["owner"])
    assert "New variant" in client.get(variants_url(base)).content.decode()
    response = client.post(variants_url(base), {"name": "  vs. aggro  "})
    variant = Deck.objects.get(name="vs. aggro")
    assert response.status_code == 302
    assert response["Location"] == reverse("decks:edit", args=[variant.share_key])
    assert (variant.forked_from, variant.parent_version) == (base, base.version)
    assert variant.owner == users["owner"] and variant.visibility == "unlisted"


def test_a_reader_copies_someone_elses_public_deck_as_a_private_variant_of_their_own(
    client, users, cards
):
    base = make(users["owner"], cards[:4])
    client.force_login(users["stranger"])
    page = client.get(variants_url(base)).content.decode()
    assert "Copy as my variant" in page and "New variant" not in page
    client.post(variants_url(base), {"name": "My take"})
    copy = Deck.objects.get(name="My take")
    assert (copy.owner, copy.visibility, copy.forked_from) == (users["stranger"], "private", base)


def test_an_anonymous_reader_is_asked_to_log_in_and_a_post_makes_nothing(client, users, cards):
    base = make(users["owner"], cards[:4])
    page = client.get(variants_url(base)).content.decode()
    assert "Log in</a> to make a variant" in page and 'name="name"' not in page
    response = client.post(variants_url(base), {"name": "Sneaky"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Deck.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("x" * 121, "at most 120 characters"),
        ("", "needs a name"),
        ("   ", "needs a name"),
    ],
)
def test_a_variant_name_that_is_empty_or_past_120_characters_is_a_400_and_makes_nothing(
    client, users, cards, name, message
):
    base = make(users["owner"], cards[:4])
    client.force_login(users["owner"])
    response = client.post(variants_url(base), {"name": name})
    assert response.status_code == 400 and message in response.content.decode()
    assert Deck.objects.count() == 1


def test_a_variant_of_120_characters_is_made(client, users, cards):
    base = make(users["owner"], cards[:4])
    client.force_login(users["owner"])
    assert client.post(variants_url(base), {"name": "v" * 120}).status_code == 302


def test_the_variants_page_costs_the_same_queries_for_one_variant_or_a_page_of_them(
    client, users, cards
):
    base = make(users["owner"], cards[:6])
    other = make(users["owner"], cards[:6], name="Other")
    deck_branch(deck=other, owner=users["owner"], name="Only one")
    for i in range(8):
        deck_branch(deck=base, owner=users["stranger"], name=f"Copy {i}")
    for deck in Deck.objects.filter(owner=users["stranger"]):
        deck_update(deck=deck, expected_version=None, changes={"visibility": "public"})
    game_snapshot(GAME)
    client.force_login(users["owner"])

    def queries(deck):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(variants_url(deck)).status_code == 200
        return len(captured)

    assert queries(other) == queries(base)
    assert "8 variants" in client.get(variants_url(base)).content.decode()


def test_a_variants_page_number_out_of_range_or_junk_shows_a_page_not_an_error(
    client, users, cards
):
    base = make(users["owner"], cards[:4])
    deck_branch(deck=base, owner=users["owner"], name="vs. aggro")
    for page in ("999999", "-1", "abc", "9" * 40):
        response = client.get(variants_url(base), {"page": page})
        assert response.status_code == 200 and "vs. aggro" in response.content.decode()


def test_a_variants_page_shows_its_parent_and_its_differences_from_the_parent_now(
    client, users, cards
):
    base = make(users["owner"], cards[:4])
    variant = deck_branch(deck=base, owner=users["owner"], name="vs. aggro")
    kept, raised, dropped = cards[0], cards[1], cards[2]
    added = cards[5]
    variant = deck_set_quantity(
        deck=variant, expected_version=None, card=raised.short_id, quantity=3
    )
    variant = deck_set_quantity(
        deck=variant, expected_version=None, card=dropped.short_id, quantity=0
    )
    variant = deck_set_quantity(deck=variant, expected_version=None, card=added.short_id, step=1)
    # Planned cards are not the deck's: they make no difference.
    deck_set_quantity(
        deck=variant, expected_version=None, card=cards[7].short_id, zone=MAYBE, step=1
    )
    # The parent moves on after the branch: the differences are from it as it is now.
    deck_set_quantity(deck=base, expected_version=None, card=cards[6].short_id, step=2)
    page = client.get(variant.get_absolute_url()).content.decode()
    assert f'Variant of <a href="{base.get_absolute_url()}">Base</a>' in page
    assert "(branched at version 1)" in page
    assert "Differences from Base\u2019s current list" in page
    assert "has been saved since this variant branched from it" in page
    assert f"+1 {raised.name} (2 \u2192 3)" in page
    assert f"+1 {added.name}<" in page
    assert f"\u22122 {dropped.name}<" in page and f"\u22122 {cards[6].name}<" in page
    assert kept.name not in page.split("Differences from")[1].split("</section>")[0]
    assert cards[7].name not in page.split("Differences from")[1].split("</section>")[0]
    compare = reverse("decks:compare") + f"?a={base.share_key}&amp;b={variant.share_key}"
    assert f'href="{compare}">Compare side by side' in page


def test_a_variant_with_the_same_cards_as_its_parent_says_so(client, users, cards):
    base = make(users["owner"], cards[:4])
    variant = deck_branch(deck=base, owner=users["owner"], name="Twin")
    assert "The same cards as Base." in client.get(variant.get_absolute_url()).content.decode()


def test_a_variant_never_names_a_parent_its_reader_may_not_see(client, users, cards):
    base = make(users["owner"], cards[:4], name="Hidden parent name")
    copy = deck_branch(deck=base, owner=users["stranger"], name="My copy")
    deck_update(deck=base, expected_version=None, changes={"visibility": "private"})
    client.force_login(users["stranger"])
    page = client.get(copy.get_absolute_url()).content.decode()
    assert "A variant of a deck you cannot see" in page
    assert "Hidden parent name" not in page and base.share_key not in page
    assert "Differences from" not in page
    mine = client.get(reverse("decks:mine")).content.decode()
    assert "Variant of a deck you cannot see" in mine and "Hidden parent name" not in mine


def test_a_variant_of_a_deleted_deck_does_not_name_it(client, users, cards):
    base = make(users["owner"], cards[:4], name="Gone parent")
    variant = deck_branch(deck=base, owner=users["owner"], name="Left behind")
    deck_delete(deck=base)
    page = client.get(variant.get_absolute_url()).content.decode()
    assert "A variant of a deck you cannot see" in page and "Gone parent" not in page


def test_a_deck_that_is_no_variant_says_nothing_of_a_parent(client, users, cards):
    base = make(users["owner"], cards[:4])
    page = client.get(base.get_absolute_url()).content.decode()
    assert "Variant of" not in page and "variant of a deck" not in page


def test_the_deck_page_counts_the_variants_its_reader_may_see_and_links_to_compare(
    client, users, cards
):
    base = make(users["owner"], cards[:4])
    deck_branch(deck=base, owner=users["owner"], name="Public one")
    private = deck_branch(deck=base, owner=users["owner"], name="Private one")
    deck_update(deck=private, expected_version=None, changes={"visibility": "private"})
    page = client.get(base.get_absolute_url()).content.decode()
    assert f'href="{variants_url(base)}">Variants <span class="tab-count">1<' in page
    assert f'href="{reverse("decks:compare")}?a={base.share_key}">Compare with…<' in page
    client.force_login(users["owner"])
    page = client.get(base.get_absolute_url()).content.decode()
    assert '>Variants <span class="tab-count">2<' in page


def test_copy_to_my_decks_is_a_variant_of_the_copied_deck(client, users, cards):
    base = make(users["owner"], cards[:4])
    client.force_login(users["stranger"])
    client.post(reverse("decks:fork", args=[base.share_key]))
    copy = Deck.objects.get(owner=users["stranger"])
    assert copy.forked_from == base
    assert "Base (copy)" in client.get(variants_url(base)).content.decode()


def test_my_decks_names_each_variants_parent(client, users, cards):
    base = make(users["owner"], cards[:4], name="The original")
    deck_branch(deck=base, owner=users["owner"], name="vs. aggro")
    client.force_login(users["owner"])
    page = client.get(reverse("decks:mine")).content.decode()
    assert f'Variant of <a href="{base.get_absolute_url()}">The original</a>' in page
    assert page.count("Variant of") == 1


def test_a_public_variant_never_shows_an_unlisted_parents_link_to_a_third_reader(
    client, users, cards, django_user_model
):
    base = make(users["owner"], cards[:4], name="Unlisted parent", visibility="unlisted")
    copy = deck_branch(deck=base, owner=users["stranger"], name="Shared copy")
    deck_update(deck=copy, expected_version=None, changes={"visibility": "public"})
    third = django_user_model.objects.create_user("third", password=PASSWORD)
    for reader in (None, third):
        if reader:
            client.force_login(reader)
        page = client.get(copy.get_absolute_url()).content.decode()
        assert "Unlisted parent" not in page and base.share_key not in page
        assert "A variant of a deck you cannot see" in page
    for reader in (users["stranger"], users["owner"]):
        client.force_login(reader)
        page = client.get(copy.get_absolute_url()).content.decode()
        assert f'Variant of <a href="{base.get_absolute_url()}">Unlisted parent</a>' in page
