"""What catalogue pages tell search engines and link previews (cardsite/catalogue/presenters.py,
base.html's <head>): a meta description on every page, one absolute canonical URL on card, game
and set pages, and a card's Open Graph title, description and face."""

import re

import pytest
from django.urls import reverse

from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.seo import DESCRIPTION_CHARS
from tests.seo_support import canonical_of, head_of, meta_of

pytestmark = pytest.mark.django_db

SITE = "https://cards.example.org"


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE


def head(client, url, status=200):
    response = client.get(url, follow=True)
    assert response.status_code == status, url
    return head_of(response.content)


def official_card():
    return Card.objects.get(card_set__code="FF-RB", name="The Insight")


def test_a_card_page_names_its_one_url_as_canonical_however_it_was_reached(client):
    card = official_card()
    expected = SITE + card.get_absolute_url()
    for way in (
        card.get_absolute_url(),
        card.get_absolute_url() + "?utm_source=feed&ref=x",
        f"/cards/{card.short_id}/",
        f"/cards/{card.short_id}/an-old-name/",
        f"/c/{card.short_id.upper()}",
    ):
        assert canonical_of(head(client, way)) == expected, way


def test_a_card_page_has_open_graph_tags_with_its_type_line_text_and_face(client):
    card = official_card()
    page = head(client, card.get_absolute_url())
    assert meta_of(page, "og:title") == f"{card.name} · {card.game.name}"
    description = meta_of(page, "og:description")
    assert description == meta_of(page, "description")
    assert description.startswith(f"{card.card_type.name}")
    assert " ".join(card.rules_text.split())[:40] in description
    assert meta_of(page, "og:url") == SITE + card.get_absolute_url()
    assert meta_of(page, "og:image") == f"{SITE}/cards/{card.short_id}/face.png"
    assert (meta_of(page, "og:image:width"), meta_of(page, "og:image:height")) == ("750", "1050")
    assert meta_of(page, "og:image:alt") == f"Card face of {card.name}"
    assert meta_of(page, "twitter:card") == "summary"
    # The image is the card's face, served to anyone.
    face = client.get(f"/cards/{card.short_id}/face.png")
    assert face.status_code == 200 and face["Content-Type"] == "image/png"


def test_a_cards_type_line_names_its_classifications(client):
    card = Card.objects.filter(card_type__isnull=False, subtypes__isnull=False).first()
    subtypes = ", ".join(s.name for s in card.subtypes.all())
    description = meta_of(head(client, card.get_absolute_url()), "description")
    assert f"{card.card_type.name} — {subtypes}" in description


def test_a_sample_cards_description_says_first_that_it_is_unofficial(client):
    card = Card.objects.filter(card_set__is_official=False).order_by("id").first()
    page = head(client, card.get_absolute_url())
    assert meta_of(page, "description").startswith("Unofficial sample card")
    assert meta_of(page, "og:description").startswith("Unofficial sample card")


def test_a_card_without_a_stated_type_or_text_is_described_without_inventing_either(client):
    card = official_card()
    card.card_type = None
    card.rules_text = ""
    card.save()
    description = meta_of(head(client, card.get_absolute_url()), "description")
    assert description == f"A {card.game.name} card, {card.card_set.name} #{card.number}."


def test_a_card_without_rules_text_is_described_by_its_type_game_and_set(client):
    card = official_card()
    card.rules_text = ""
    card.save()
    description = meta_of(head(client, card.get_absolute_url()), "description")
    expected = (
        f"{card.card_type.name}. A {card.game.name} card, {card.card_set.name} #{card.number}."
    )
    assert description == expected


def test_a_long_rules_text_is_cut_at_a_word_to_a_sensible_length(client):
    card = official_card()
    card.rules_text = "Draw a card and then " * 40
    card.save()
    description = meta_of(head(client, card.get_absolute_url()), "og:description")
    assert len(description) <= DESCRIPTION_CHARS
    assert description.endswith("…")
    assert description[:-1].endswith(("Draw", "a", "card", "and", "then"))


def test_a_landscape_card_shows_its_face_large(client):
    card = next(
        c for c in Card.objects.filter(card_type__isnull=False).order_by("id") if c.is_landscape
    )
    page = head(client, card.get_absolute_url())
    assert (meta_of(page, "og:image:width"), meta_of(page, "og:image:height")) == ("1050", "750")
    assert meta_of(page, "twitter:card") == "summary_large_image"


def test_a_game_page_names_its_canonical_url_and_describes_its_cards(client):
    game = Game.objects.get(slug="conquest-of-orion")
    page = head(client, game.get_absolute_url() + "?utm_campaign=x")
    assert canonical_of(page) == SITE + game.get_absolute_url()
    description = meta_of(page, "description")
    assert description.startswith(f"{game.name}: ")
    assert f"{game.cards.count()} cards" in description
    assert description.endswith("Includes an unofficial sample set.")
    assert len(description) <= DESCRIPTION_CHARS


def test_a_set_page_names_its_canonical_url_keeping_only_a_page_past_the_first(client):
    card_set = CardSet.objects.select_related("game").get(code="ORI-SMP")
    path = reverse("catalogue:set", args=[card_set.game.slug, card_set.code])
    assert canonical_of(head(client, path)) == SITE + path
    assert canonical_of(head(client, path + "?view=list&utm_source=x")) == SITE + path
    assert canonical_of(head(client, path + "?page=1")) == SITE + path
    assert canonical_of(head(client, path + "?page=2&view=grid")) == f"{SITE}{path}?page=2"
    # A page past the last is the last page, and names itself.
    last = -(-card_set.cards.count() // 24)
    assert canonical_of(head(client, path + "?page=999")) == f"{SITE}{path}?page={last}"


def test_a_sample_sets_description_says_it_is_made_up(client):
    card_set = CardSet.objects.select_related("game").get(code="ORI-SMP")
    path = reverse("catalogue:set", args=[card_set.game.slug, card_set.code])
    description = meta_of(head(client, path), "description")
    assert description.endswith(
        " An unofficial sample set: every name and number in it is made up."
    )
    assert len(description) <= DESCRIPTION_CHARS
    official = CardSet.objects.select_related("game").get(code="ORI-RB")
    path = reverse("catalogue:set", args=[official.game.slug, official.code])
    assert "sample" not in meta_of(head(client, path), "description")


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/", 200),
        ("/syntax/", 200),
        ("/decks/", 200),
        ("/search/?q=t%3Aunit", 200),
        ("/accounts/login/", 200),
        ("/accounts/signup/", 200),
        ("/no-such-page/", 404),
    ],
)
def test_every_page_has_a_meta_description(client, url, status):
    description = meta_of(head(client, url, status), "description")
    assert description and len(description) <= DESCRIPTION_CHARS * 1.5


def test_the_home_page_description_names_every_game(client):
    description = meta_of(head(client, "/"), "description")
    assert all(game.name in description for game in Game.objects.all())


def test_the_home_page_names_the_site_root_as_canonical(client):
    assert canonical_of(head(client, "/?utm_source=newsletter")) == SITE + "/"


# Every break str.splitlines knows, and the other controls it counts as breaks.
LINE_BREAKS = ["\r", "\n", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("newline", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_rules_text_with_any_line_break_is_one_line_in_the_page_meta(client, newline):
    card = official_card()
    card.rules_text = newline.join(["Draw a card.", "Then discard one."])
    card.save()
    raw = client.get(card.get_absolute_url()).content.decode()
    # As sent, before any parser could mend it: both descriptions, on one line each.
    sent = re.findall(r'<meta (?:name|property)="(?:og:)?description" content="([^"]*)"', raw)
    assert len(sent) == 2
    for shown in sent:
        assert shown.endswith("Draw a card. Then discard one."), shown
        assert shown.splitlines() == [shown] and shown.isprintable(), shown
