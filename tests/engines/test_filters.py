"""The filter language evaluated in memory, over deck cards and catalogue records (no database)."""

import pytest

from engines import get_engine
from engines.base import StatField, StatKind
from engines.filters import (
    CardRecord,
    FilterError,
    Named,
    QuerySyntaxError,
    RarityInfo,
    Schema,
    SetInfo,
    compile_filter,
    compile_query,
    matches,
    select,
)
from engines.rules import DeckCard

ALPHA = get_engine("conquest-alpha-tactics").stats

STATS = (
    StatField("cq", "CQ", StatKind.INTEGER, "", aliases=("cost",)),
    StatField("hp", "Health", StatKind.INTEGER, ""),
    StatField("colour", "Colour", StatKind.CHOICE, "", choices=("red", "blue", "black")),
)


def deck_card(name, card_type="Ship", keywords=(), factions=(), subtypes=(), text="", **stats):
    return DeckCard(
        key=name,
        name=name,
        card_type=card_type,
        zone="main",
        quantity=1,
        factions=tuple(factions),
        keywords=tuple(keywords),
        subtypes=tuple(subtypes),
        stats=stats,
        text=text,
    )


def names(query, cards, stats=STATS):
    rule = compile_filter(query, stats=stats)
    return [c.name for c in cards if rule(c)]


EARTH = deck_card("Earth", "Planet", planet_type="federation")
VULCAN = deck_card("Vulcan", "Planet", planet_type="federation")
KRONOS = deck_card("Qo'noS", "Planet", planet_type="imperial")
SHIP = deck_card("Defiant", "Ship", combat_power=4)
TECH = deck_card("Cloak", "Tech")
ACTION = deck_card("Red Alert", "Action", keywords=("Permanent Effect",))


def test_blue_planets_but_earth_are_named_by_a_filter_over_deck_cards():
    cards = [EARTH, VULCAN, KRONOS, SHIP]
    assert names("planet_type:federation -!Earth", cards, ALPHA) == ["Vulcan"]


def test_player_cards_are_named_by_types_or_an_effect_keyword():
    cards = [EARTH, SHIP, TECH, ACTION]
    query = 't:ship or t:tech or kw:"Permanent Effect"'
    assert names(query, cards, ALPHA) == ["Defiant", "Cloak", "Red Alert"]


def test_an_unknown_key_is_an_error_naming_the_key():
    with pytest.raises(FilterError) as raised:
        compile_filter("planet_typ:federation", stats=ALPHA)
    assert raised.value.key == "planet_typ"
    assert "unknown key “planet_typ”" in str(raised.value)
    assert raised.value.position == 0


def test_a_stat_alias_names_the_stat():
    assert names("planet:fed", [EARTH, KRONOS], ALPHA) == ["Earth"]
    assert names("cp>=4", [SHIP, TECH], ALPHA) == ["Defiant"]


def test_a_choice_no_stat_offers_is_an_error_in_a_strict_filter():
    with pytest.raises(FilterError, match="planet_type is one of federation, imperial"):
        compile_filter("planet_type:blue", stats=ALPHA)


def test_a_word_where_a_number_belongs_is_an_error_in_a_strict_filter():
    with pytest.raises(FilterError, match="cq needs a whole number"):
        compile_filter("cq>=lots", stats=STATS)


def test_a_number_beyond_what_a_stat_holds_is_refused_in_either_mode():
    with pytest.raises(QuerySyntaxError, match="between"):
        compile_query("cq>=99999999999", schema=Schema(stats=STATS))


def test_text_that_does_not_parse_is_a_syntax_error():
    with pytest.raises(QuerySyntaxError, match="never closed"):
        compile_filter("(t:ship", stats=STATS)


@pytest.mark.parametrize("query", ["own>=1", "is:owned"])
def test_a_viewers_collection_cannot_be_read_in_memory(query):
    with pytest.raises(FilterError, match="collection"):
        compile_query(query, schema=Schema(stats=STATS))


@pytest.mark.parametrize("query", ["s:core", "r>=rare", "game:orion", "is:sample"])
def test_keys_only_the_catalogue_answers_are_refused_for_deck_rules(query):
    with pytest.raises(FilterError, match="needs the catalogue"):
        compile_filter(query, stats=STATS)


def test_order_terms_sort_searches_and_are_refused_in_a_strict_filter():
    with pytest.raises(FilterError, match="sorts"):
        compile_filter("t:ship order:cq", stats=STATS)


def test_every_integer_comparison_reads_the_stat_and_skips_cards_without_it():
    cards = [deck_card(f"C{n}", cq=n) for n in range(4)] + [deck_card("None")]
    assert names("cq:2", cards) == ["C2"]
    assert names("cq=2", cards) == ["C2"]
    assert names("cq<2", cards) == ["C0", "C1"]
    assert names("cq<=1", cards) == ["C0", "C1"]
    assert names("cq>2", cards) == ["C3"]
    assert names("cost>=2", cards) == ["C2", "C3"]
    assert names("cq!=2", cards) == ["C0", "C1", "C3"]


def test_a_card_without_the_stat_is_neither_in_nor_out_of_a_comparison_with_it():
    # As in the search's SQL, where comparing with a missing stat is NULL: `-cq:2` lists only
    # cards with a CQ other than 2, and an `or` with a true side still lists the card.
    cards = [deck_card("Two", cq=2), deck_card("Three", cq=3), deck_card("Unit", "Unit")]
    assert names("-cq:2", cards) == ["Three"]
    assert names("-(cq:2 or t:ship)", cards) == []
    assert names("-(cq:2 and t:ship)", cards) == ["Three", "Unit"]
    assert names("cq:2 or t:unit", cards) == ["Two", "Unit"]
    assert names("-(cq:2 or t:unit)", cards) == ["Three"]
    assert names("--cq:2", cards) == ["Two"]


def test_a_choice_stat_matches_by_a_unique_prefix():
    cards = [deck_card("R", colour="red"), deck_card("B", colour="blue"), deck_card("X")]
    assert names("colour:r", cards) == ["R"]
    assert names("colour!=red", cards) == ["B"]
    with pytest.raises(FilterError):
        compile_filter("colour:bl", stats=STATS)  # blue or black
    with pytest.raises(FilterError):
        compile_filter("colour>red", stats=STATS)


def test_names_fold_case_accents_and_apostrophes():
    cards = [deck_card("D'Deridex"), deck_card("Café Royale"), deck_card("Pale Horse")]
    assert names("deridex", cards) == ["D'Deridex"]
    assert names("CAFE", cards) == ["Café Royale"]
    assert names("horse pale", cards) == ["Pale Horse"]
    assert names('"horse pale"', cards) == []
    assert names('"pale horse"', cards) == ["Pale Horse"]
    assert names("name:ale", cards) == ["Café Royale", "Pale Horse"]
    assert names("!pale", cards) == []
    assert names('!"PALE HORSE"', cards) == ["Pale Horse"]


def test_rules_text_matches_word_beginnings_and_phrases():
    drawer = deck_card("A", text="Draw two cards, then discard one.")
    other = deck_card("B", text="Withdraw a card.")
    cards = [drawer, other]
    assert names("o:draw", cards) == ["A"]
    assert names("o:card", cards) == ["A", "B"]
    assert names('o:"two card"', cards) == ["A"]
    assert names('o:"draw card"', cards) == []
    assert names("o:draw o:discard", cards) == ["A"]


def test_types_match_any_part_of_the_type_or_a_classification():
    cards = [
        deck_card("A", "Combat Zone"),
        deck_card("B", "Unit", subtypes=("Flagship",)),
        deck_card("C", ""),
    ]
    assert names("t:zone", cards) == ["A"]
    assert names('t:"combat zone"', cards) == ["A"]
    assert names("t:ship", cards) == ["B"]
    assert names("t!=ship", cards) == ["A", "C"]


def test_factions_match_a_prefix_or_the_singular():
    cards = [deck_card("A", factions=("Dwarves",)), deck_card("B", factions=("Humans",))]
    assert names("f:dwarf", cards) == ["A"]
    assert names("f:hum", cards) == ["B"]
    assert names("faction:elves", cards) == []


def test_keywords_match_by_name_or_its_first_words():
    cards = [deck_card("A", keywords=("Guardian 2",)), deck_card("B", keywords=("Guard",))]
    assert names("kw:guardian", cards) == ["A"]
    assert names("kw:guard", cards) == ["B"]
    assert names("has:guardian-2", cards) == ["A"]


def test_or_binds_looser_than_and_and_minus_negates_a_group():
    cards = [deck_card("A", cq=1, hp=1), deck_card("B", cq=2, hp=1), deck_card("C", cq=2, hp=2)]
    assert names("cq:1 or cq:2 hp:2", cards) == ["A", "C"]
    assert names("(cq:1 or cq:2) hp:1", cards) == ["A", "B"]
    assert names("-(cq:1 or hp:2)", cards) == ["B"]


def test_an_empty_filter_matches_every_card():
    assert names("", [SHIP, TECH]) == ["Defiant", "Cloak"]


CATALOGUE = Schema(
    stats=STATS,
    types=("Unit", "Planet"),
    subtypes=("Flagship",),
    factions=(Named("Romulans", "ROM"), Named("Humans")),
    keywords=(Named("Guardian 2", "G"),),
    sets=(SetInfo("CORE", "Core Set"), SetInfo("SMP", "Sample Cards", official=False)),
    rarities=(RarityInfo("Gold", 3), RarityInfo("Bronze", 1), RarityInfo("Silver", 2)),
    games=("conquest-of-orion",),
)
RECORDS = [
    CardRecord("1", "Warbird", "Unit", factions=("Romulans",), set_code="CORE", rarity="Bronze"),
    CardRecord("2", "Ark", "Unit", keywords=("Guardian 2",), set_code="SMP", official=False),
    CardRecord("3", "Earth", "Planet", set_code="CORE", rarity="Gold", game="conquest-of-orion"),
    CardRecord("4", "Mars", "Planet", set_code="CORE", rarity="Silver"),
]


def selected(query):
    return [r.name for r in select(query, RECORDS, schema=CATALOGUE)]


def test_catalogue_records_answer_sets_rarities_games_and_officialness():
    assert selected("s:core") == ["Warbird", "Earth", "Mars"]
    assert selected("set:sample") == ["Ark"]
    assert selected("is:sample") == ["Ark"]
    assert selected("-is:official") == ["Ark"]
    assert selected("r>=silver") == ["Earth", "Mars"]
    assert selected("r<silver") == ["Warbird"]
    assert selected("r!=gold") == ["Warbird", "Ark", "Mars"]
    assert selected("game:orion") == ["Earth"]
    assert selected("f:rom") == ["Warbird"]
    assert selected("kw:g") == ["Ark"]


def test_a_lenient_filter_drops_a_term_that_cannot_apply_and_says_why():
    card_filter = compile_query("t:unit t:achievment", schema=CATALOGUE)
    assert [r.name for r in RECORDS if card_filter(r)] == ["Warbird", "Ark"]
    assert [d.reason for d in card_filter.dropped] == [
        "“achievment” is not a card type or classification"
    ]


def test_a_lenient_filter_whose_every_term_was_dropped_matches_nothing():
    assert selected("t:achievment") == []
    assert selected("order:name") == [r.name for r in RECORDS]


def test_matches_answers_for_one_card():
    assert matches("t:planet r:gold", RECORDS[2], schema=CATALOGUE)
    assert not matches("t:planet r:gold", RECORDS[3], schema=CATALOGUE)


def test_a_catalogue_key_over_a_card_without_that_fact_names_what_is_missing():
    card_filter = compile_query("s:core", schema=CATALOGUE)
    with pytest.raises(FilterError, match="set code, which a DeckCard does not carry"):
        card_filter(SHIP)
