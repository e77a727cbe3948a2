"""A game's page shows its formats: each with its description, the values the site sets for
it, and every rule as a sentence with its rulebook source, as the API's /formats/ has them;
and it links the rulebook itself when the site holds it."""

import html
import re

import pytest

from cardsite.catalogue.models import Game
from decks.models import FormatSetting
from engines import ENGINES

pytestmark = pytest.mark.django_db


def section(page: str, fmt: str) -> str:
    found = re.search(rf'<article class="format" id="format-{fmt}">.*?</article>', page, re.S)
    assert found, fmt
    return html.unescape(found.group(0))


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_format_shows_every_rule_as_a_sentence_with_its_source(client, slug):
    page = client.get(f"/games/{slug}/").content.decode()
    for fmt in ENGINES[slug].formats:
        shown = section(page, fmt.slug)
        assert f"<h3>{fmt.name}</h3>" in shown and fmt.description in shown
        for rule in fmt.rules:
            assert rule.sentence(fmt.default_settings()) in shown, (fmt.slug, rule)
            assert f"Source: {rule.source}" in shown, (fmt.slug, rule)


def test_a_warning_rule_is_marked_as_not_making_the_deck_illegal(client):
    standard = section(client.get("/games/conquest-of-fates/").content.decode(), "standard")
    faction = re.search(
        r"<li>Every card in the deck is of the deck's one faction\..*?</li>", standard, re.S
    )
    assert "warning only" in faction.group(0)


def test_a_size_the_site_sets_shows_its_value_on_the_page_and_in_the_api_alike(client, api):
    page = section(client.get("/games/conquest-of-fates/").content.decode(), "standard")
    assert "not set by the site, so not checked" in page
    FormatSetting.objects.create(
        game=Game.objects.get(slug="conquest-of-fates"),
        format="standard",
        key="deck_size",
        value=40,
    )
    page = section(client.get("/games/conquest-of-fates/").content.decode(), "standard")
    assert "The deck holds exactly 40 cards (the site's deck size setting)." in page
    api_rules = api.get("/api/v1/games/conquest-of-fates/formats/").json()[0]["rules"]
    for rule in api_rules:
        assert rule["sentence"] in page and rule["source"] in page


def test_the_rulebook_is_linked_and_served_as_text_when_the_site_holds_it(
    client, settings, tmp_path
):
    settings.RULEBOOKS_DIR = tmp_path
    page = client.get("/games/conquest-of-orion/").content.decode()
    assert "/games/conquest-of-orion/rulebook.txt" not in page
    assert client.get("/games/conquest-of-orion/rulebook.txt").status_code == 404

    (tmp_path / ENGINES["conquest-of-orion"].rulebook).write_text("§1.6 Deck and Hand…", "utf-8")
    page = client.get("/games/conquest-of-orion/").content.decode()
    assert '<a href="/games/conquest-of-orion/rulebook.txt">the rulebook</a>' in page
    response = client.get("/games/conquest-of-orion/rulebook.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert b"".join(response.streaming_content).decode() == "§1.6 Deck and Hand…"
    assert client.get("/games/chess/rulebook.txt").status_code == 404


def test_the_game_page_costs_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    client.get("/games/conquest-of-fates/")  # the snapshot, once per catalogue version
    # The game and its prefetches (sets, factions, keywords and theirs, rarities, terms, card
    # types), and the request's savepoint and release; the formats read none.
    with django_assert_max_num_queries(10):
        client.get("/games/conquest-of-fates/")


@pytest.mark.parametrize(
    ("slug", "fmt", "words"),
    [
        # Glossary, Nest: "a nest must contain at least 60 cards" (are the Sigils among them?)
        ("fate-foretold", "nest", "a nest must contain at least 60 cards"),
        # "Shuffle the Sigils face-down and let each player choose one"
        ("fate-foretold", "nest", "let each player choose one"),
        # Terms & Clarifications, APEX: "special deck-building restriction of 1 per Deck"
        ("conquest-of-fates", "standard", "restriction of 1 per Deck"),
        # Game Components: "Each factions comes with: ... 8 Upgrade Cards"
        ("conquest-for-the-capital", "faction-deck", "comes with ... 8 Upgrade Cards"),
    ],
)
def test_a_reading_the_rulebook_leaves_open_shows_on_the_format_with_its_words(
    client, slug, fmt, words
):
    shown = section(client.get(f"/games/{slug}/").content.decode(), fmt)
    [rule] = [li for li in re.findall(r"<li>.*?</li>", shown, re.S) if words in li]
    assert "Reading:" in rule and "the site" in rule
