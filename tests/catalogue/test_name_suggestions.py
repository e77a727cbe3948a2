"""Typed names ranked the way people misspell them, against the real fixtures.

Every game gets a table of real-looking typos: dropped, doubled and swapped letters, spelling
by sound (ph/f, ie/ei, c/k/s), a missing "The", and words split or joined wrongly. Each must
make its card the first suggestion, searching every game at once (the search page's default),
so a near name of another game cannot win either. The names are the rulebooks' own cards where
a game's fixtures have enough of them; Conquest of Fates has no card named in its rulebook and
Conquest for the Capital one, so theirs come from the fixtures' unofficial sample sets.
"""

import pytest

from cardsite.catalogue.models import Card
from cardsite.catalogue.search import names
from cardsite.catalogue.search.similarity import score, sound
from decks.services import intake_text, resolve
from engines import ENGINES

pytestmark = pytest.mark.django_db

TYPOS = {
    "fate-foretold": [
        ("deth", "Death, the Pale Horse"),  # a dropped letter
        ("insite", "The Insight"),  # by sound, and no "The"
        ("the insihgt", "The Insight"),  # swapped letters
        ("pestilance", "Pestilence, the Black Horse"),  # a vowel by sound
        ("sagitarius", "Sagittarius, the Archer"),  # a doubled letter single
        ("capricon", "Capricorn, the Goat"),  # a dropped letter
        ("dopelganger", "The Doppelganger"),  # a doubled letter single, no "The"
        ("wheel of fortune", "The Wheel of Fortune"),  # no "The"
        ("the whisperrer", "The Whisperer"),  # a letter doubled
        ("metamorfosis", "The Metamorphosis"),  # f for ph
        ("thirdeye", "The Third Eye"),  # words joined
        ("uroboros", "The Ouroboros"),  # a dropped vowel
        ("scorpio the scorpian", "Scorpio, the Scorpion"),  # a vowel by sound
        ("famin", "Famine"),  # a dropped letter
    ],
    "conquest-alpha-tactics": [
        ("boreht", "Boreth"),  # swapped letters
        ("cloking device", "Cloaking Device"),  # a dropped letter
        ("quantam torpedos", "Quantum Torpedoes"),  # a vowel by sound, a dropped letter
        ("multifasic shields", "Multiphasic Shields"),  # f for ph
        ("bajoran wormhoel", "Bajoran Wormhole"),  # swapped letters
        ("ferenginarr", "Ferenginar"),  # a letter doubled
        ("vor cha", "Vor'Cha"),  # a space for the apostrophe
        ("telar prime", "Tellar Prime"),  # a doubled letter single
        ("phazer", "Phaser"),  # z for s
        ("deridecks", "D'Deridex"),  # cks for x, the first D left out
        ("tacticle officer", "Tactical Officer"),  # by sound
    ],
    "conquest-of-orion": [
        ("cloud glider", "Cloudglider"),  # a word split
        ("helikraken", "Heliokraken"),  # a dropped letter
        ("heliocracken", "Heliokraken"),  # c and ck for k
        ("foreruner", "Forerunner"),  # a doubled letter single
        ("expidition escort", "Expedition Escort"),  # a vowel by sound
        ("plated voyajer", "Plated Voyager"),  # j for g
        ("osirus", "Osiris"),  # a vowel by sound
        ("archiv card", "Archive card"),  # a dropped letter
        ("ise planet", "Ice Planet"),  # s for c
        ("rok planet", "Rock Planet"),  # k for ck
        ("iamurr", "Iamur"),  # a letter doubled
    ],
    "conquest-for-the-capital": [
        ("elf specal card", "Elf Special Card"),  # a dropped letter (the rulebook's card)
        ("ale of valor", "Ale of Valour"),  # American spelling
        ("ancestors grudge", "Ancestor's Grudge"),  # no apostrophe
        ("berzerker horde", "Berserker Horde"),  # z for s
        ("necromancers libary", "Necromancer's Library"),  # a dropped letter
        ("mithril male", "Mithril Mail"),  # by sound
        ("sorcerus spring", "Sorcerous Spring"),  # a dropped letter
        ("wailing banshe", "Wailing Banshee"),  # a doubled letter single
        ("skull crusher volley", "Skullcrusher Volley"),  # a word split
    ],
    "conquest-of-fates": [
        ("blossom preistess", "Blossom Priestess"),  # ei for ie
        ("coinforge automoton", "Coinforge Automaton"),  # a vowel by sound
        ("hierofant of the green dawn", "Hierophant of the Green Dawn"),  # f for ph
        ("mother seed ylvane", "Mother-Seed Ylvanne"),  # a doubled letter single
        ("riftstep asassin", "Riftstep Assassin"),  # a doubled letter single
        ("void bound seer", "Voidbound Seer"),  # a word split
        ("black maw", "The Black Maw"),  # no "The"
        ("liken sage", "Lichen Sage"),  # k for ch
        ("obsidian kantor", "Obsidian Cantor"),  # k for c
    ],
}

CASES = [(game, typo, name) for game, table in TYPOS.items() for typo, name in table]


def test_every_game_has_a_table_of_at_least_eight_typos():
    assert set(TYPOS) == set(ENGINES)
    assert all(len(table) >= 8 for table in TYPOS.values())


@pytest.mark.parametrize("game", sorted(TYPOS))
def test_the_typo_tables_name_real_cards_of_their_game_official_where_the_game_has_enough(game):
    cards = Card.objects.filter(game__slug=game)
    official = set(cards.filter(card_set__is_official=True).values_list("name", flat=True))
    wanted = {name for _, name in TYPOS[game]}
    assert wanted <= set(cards.values_list("name", flat=True))
    if len(official) >= 8:
        assert wanted <= official


@pytest.mark.parametrize(("game", "typo", "name"), CASES, ids=[c[1] for c in CASES])
def test_a_typo_makes_its_card_the_first_suggestion_across_every_game(game, typo, name):
    assert names.suggestions(typo)[0] == name


def test_deth_finds_death_before_boreth():
    found = names.suggestions("deth")
    assert found[0] == "Death, the Pale Horse"
    assert "Boreth" not in found


def test_insite_finds_the_insight():
    assert names.suggestions("insite") == ["The Insight"]


def test_the_named_api_forgives_the_same_typos(api):
    body = api.get("/api/v1/cards/named/", {"fuzzy": "insite"}).json()
    assert body["name"] == "The Insight"
    body = api.get("/api/v1/cards/named/", {"fuzzy": "heliocracken"}).json()
    assert body["name"] == "Heliokraken"


def test_an_unknown_card_in_a_decklist_is_offered_the_card_it_misspells():
    engine = ENGINES["fate-foretold"]
    resolved = resolve(game="fate-foretold", intake=intake_text("1 insite\n1 deth", engine))
    offered = {p.cards[0]: p.suggestions[0] for p in resolved.problems}
    assert offered == {"insite": "The Insight", "deth": "Death, the Pale Horse"}


def test_the_search_page_offers_the_misspelt_card(client):
    page = client.get("/search/", {"q": "insite"}).content.decode()
    assert "Did you mean" in page and "The Insight" in page


def test_names_that_sound_alike_are_spelt_alike_by_sound():
    assert sound("insite") == sound("insight")
    assert sound("metamorfosis") == sound("metamorphosis")
    assert sound("preistess") == sound("priestess")
    assert sound("phazer") == sound("phaser")


def test_a_missing_article_costs_nothing_and_a_part_of_a_name_little():
    assert score("wheel of fortune", "the wheel of fortune") == 100
    assert score("death", "death the pale horse") > score("deth", "boreth")


def test_a_name_of_nonsense_is_offered_nothing():
    assert names.suggestions("zzzzqqq xxyyk") == []


def test_a_name_longer_than_any_card_name_is_offered_nothing_without_scoring(
    django_assert_max_num_queries,
):
    # 200 characters: past the fuzzy limit, refused before the names are read.
    with django_assert_max_num_queries(0):
        assert names.suggestions("deth " * 40) == []


def test_a_name_at_the_fuzzy_limit_is_still_ranked():
    typed = "thirdeye " + "x" * 100
    assert len(typed) <= 120
    assert isinstance(names.suggestions(typed), list)
