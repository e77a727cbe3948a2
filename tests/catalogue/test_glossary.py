"""The keyword glossary on game and card pages: each reminder text once, long entries opening
instead of cut short, and factions and keywords linked to their searches; and the rulebook's
terms on each game's page, each whole, with its source."""

import html
import re
from urllib.parse import parse_qs, urlparse

import pytest

from cardsite.catalogue.glossary import LONG_WORDS, SUMMARY_WORDS, glossary_entry
from cardsite.catalogue.models import Card, Faction, Game, Keyword, Term

pytestmark = pytest.mark.django_db

LONG = " ".join(f"Sentence {n} has words." for n in range(20))


def words_of(*texts: str) -> list[str]:
    return " ".join(texts).split()


def test_a_reminder_the_description_already_holds_is_printed_once_in_it():
    entry = glossary_entry(
        "Core units have no triggers", "Core is a status. Core units have no triggers."
    )
    assert entry.reminder == "" and entry.summary.count("Core units have no triggers") == 1


def test_the_same_text_as_reminder_and_description_is_printed_once():
    entry = glossary_entry("Bury a card.", "Bury a card.")
    assert (entry.reminder, entry.summary, entry.more) == ("", "Bury a card.", "")


def test_a_separate_reminder_is_shown_before_the_description():
    entry = glossary_entry("Cannot move.", "It stays on its planet.")
    assert (entry.reminder, entry.summary) == ("Cannot move.", "It stays on its planet.")


def test_a_long_entry_opens_on_its_first_sentence_and_loses_no_word():
    entry = glossary_entry("", LONG)
    assert entry.summary == "Sentence 0 has words." and entry.more
    assert words_of(entry.summary, entry.more) == words_of(LONG)


def test_a_long_first_sentence_is_cut_at_a_word_and_continued_not_dropped():
    text = " ".join(["word"] * (SUMMARY_WORDS + 30)) + "."
    entry = glossary_entry("", text)
    assert len(entry.summary.split()) == SUMMARY_WORDS
    assert words_of(entry.summary, entry.more) == words_of(text)


def test_a_long_description_beside_a_reminder_opens_under_the_reminder():
    entry = glossary_entry("Cannot move.", LONG)
    assert (entry.reminder, entry.summary, entry.more) == ("Cannot move.", "", LONG)


def test_an_entry_of_few_words_is_shown_whole():
    text = " ".join(["w"] * LONG_WORDS)
    assert glossary_entry("", text).more == ""


def keyword_block(page: str, name: str) -> str:
    dt = re.search(rf"<dt><a [^>]*>{re.escape(name)}</a>.*?</dd>", page, re.S)
    assert dt, name
    return html.unescape(dt.group(0))


def text_of(block: str) -> str:
    """What a reader reads in an entry, opened: no tags, nor the "more" that opens it."""
    block = block.replace('<span class="more">more</span>', " ")
    return " ".join(re.sub(r"<[^>]+>", " ", block).split())


@pytest.mark.parametrize(
    ("game", "name"),
    [
        ("conquest-of-fates", "Apex"),
        ("fate-foretold", "Bury"),
        ("conquest-for-the-capital", "Removal"),
    ],
)
def test_the_game_page_prints_each_reminder_text_once(client, game, name):
    keyword = Keyword.objects.get(game__slug=game, name=name)
    block = keyword_block(client.get(f"/games/{game}/").content.decode(), name)
    assert text_of(block).count(" ".join(keyword.reminder_text.split())) == 1


def test_every_keyword_of_every_game_page_shows_its_whole_text_without_an_ellipsis(client):
    for game in Game.objects.all():
        page = client.get(game.get_absolute_url()).content.decode()
        for keyword in game.keywords.all():
            text = text_of(keyword_block(page, keyword.name))
            assert " ".join(keyword.description.split()) in text, (game.slug, keyword.name)
            assert " ".join(keyword.reminder_text.split()) in text, (game.slug, keyword.name)
            assert text.count("…") == keyword.description.count("…")


def test_a_long_keyword_entry_opens_with_details(client):
    page = client.get("/games/conquest-of-orion/").content.decode()
    sweep = keyword_block(page, "Sweep")
    assert "<details><summary><em>This may attack multiple units" in sweep


def term_block(page: str, term: Term) -> str:
    found = re.search(rf'<dt id="term-{term.slug}">.*?</dd>', page, re.S)
    assert found, term.name
    return html.unescape(found.group(0))


def test_every_game_page_lists_every_rulebook_term_whole_with_its_source(client):
    games = [game for game in Game.objects.all() if game.terms.exists()]
    assert len(games) == 5
    for game in games:
        page = client.get(game.get_absolute_url()).content.decode()
        section = re.search(r'<section id="terms">.*?</section>', page, re.S).group(0)
        assert "<h2>Rulebook terms</h2>" in section
        for term in game.terms.all():
            text = text_of(term_block(section, term))
            assert text.startswith(" ".join(term.name.split())), (game.slug, term.name)
            assert " ".join(term.text.split()) in text, (game.slug, term.name)
            assert f"Rulebook: {term.source}" in text, (game.slug, term.name)


def test_the_fifty_seven_terms_of_a_game_are_on_its_page_in_order_of_name(client):
    game = Game.objects.get(slug="conquest-of-fates")
    page = client.get(game.get_absolute_url()).content.decode()
    shown = re.findall(r'<dt id="term-([^"]+)">', page)
    assert len(shown) == 57
    assert shown == list(game.terms.order_by("name").values_list("slug", flat=True))


def test_a_long_term_opens_in_place_and_loses_no_word(client):
    game = Game.objects.get(slug="conquest-of-fates")
    term = max(game.terms.all(), key=lambda t: len(t.text.split()))
    block = term_block(client.get(game.get_absolute_url()).content.decode(), term)
    assert "<details><summary>" in block
    assert " ".join(term.text.split()) in text_of(block)


def test_a_game_without_terms_has_no_terms_section(client):
    game = Game.objects.get(slug="conquest-of-orion")
    game.terms.all().delete()
    assert 'id="terms"' not in client.get(game.get_absolute_url()).content.decode()


def search_of(href: str) -> dict[str, list[str]]:
    return parse_qs(urlparse(html.unescape(href)).query)


def test_faction_chips_and_keyword_names_on_the_game_page_link_to_their_searches(client):
    page = client.get("/games/conquest-of-orion/").content.decode()
    humans = re.search(r'<a class="chip"[^>]*href="([^"]+)"[^>]*>Humans', page).group(1)
    assert search_of(humans) == {"q": ['f:"Humans"'], "game": ["conquest-of-orion"]}
    guardian = re.search(r'<dt><a href="([^"]+)"[^>]*>Guardian</a>', page).group(1)
    assert search_of(guardian) == {"q": ['kw:"Guardian"'], "game": ["conquest-of-orion"]}


def test_the_linked_searches_find_the_faction_s_and_keyword_s_cards(client):
    faction = Faction.objects.get(game__slug="conquest-of-orion", name="Humans")
    keyword = Keyword.objects.get(game__slug="conquest-of-fates", name="Apex")
    for term, game, card in [
        ('f:"Humans"', "conquest-of-orion", faction.cards.first()),
        ('kw:"Apex"', "conquest-of-fates", keyword.cards.first()),
    ]:
        found = client.get("/search/", {"q": term, "game": game, "view": "list"})
        assert found.status_code == 200 and "warning" not in found.content.decode().lower()
        assert card.get_absolute_url() in found.content.decode()


def test_a_card_page_links_its_factions_and_keywords_to_searches_and_prints_reminders_once(
    client,
):
    card = Card.objects.filter(
        keywords__name="Apex", factions__isnull=False, game__slug="conquest-of-fates"
    ).first()
    page = client.get(card.get_absolute_url()).content.decode()
    faction = card.factions.first()
    assert re.search(rf'<a class="chip"[^>]*href="[^"]*f%3A%22{faction.name.split()[0]}', page)
    assert 'href="/search/?q=kw%3A%22Apex%22&amp;game=conquest-of-fates"' in page
    assert text_of(keyword_block(page, "Apex")).count("1 per Deck") == 1
