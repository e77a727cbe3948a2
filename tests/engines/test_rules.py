"""The rule vocabulary (engines/rules.py) and what every game's formats share."""

import pickle

import pytest

from engines import ENGINES
from engines.rules import (
    NOT_EMPTY,
    CardLimit,
    CopyLimit,
    Deck,
    Format,
    NotEmpty,
    Severity,
    ZoneSize,
    infer_faction,
)
from tests.engines.deck_building import card, cards, codes

EVERY_FORMAT = [(slug, f.slug) for slug, engine in ENGINES.items() for f in engine.formats]


def test_every_game_declares_the_formats_the_site_offers():
    assert {slug: [f.slug for f in e.formats] for slug, e in ENGINES.items()} == {
        "conquest-of-fates": ["standard", "homeworld"],
        "conquest-of-orion": ["constructed", "limited"],
        "fate-foretold": ["nest", "speed-run"],
        "conquest-for-the-capital": ["faction-deck"],
        "conquest-alpha-tactics": [
            "faction-deck",
            "targets",
            "targets-short-2p",
            "targets-short-3p",
        ],
    }


def test_every_rule_names_its_rulebook_source_and_describes_itself():
    for engine in ENGINES.values():
        for fmt in engine.formats:
            for rule in fmt.rules:
                assert rule.source, (engine.slug, fmt.slug, rule)
                assert rule.as_dict()["description"]


@pytest.mark.parametrize(("game", "fmt"), EVERY_FORMAT)
def test_an_empty_deck_is_never_legal_in_any_format(game, fmt):
    found = ENGINES[game].format(fmt).validate(Deck(()))
    assert "empty_deck" in codes(found)
    [empty] = [p for p in found if p.code == "empty_deck"]
    assert "a game cannot be played without a deck" in empty.message
    assert empty.source == NOT_EMPTY.source


@pytest.mark.parametrize(("game", "fmt"), EVERY_FORMAT)
def test_every_format_and_its_check_results_survive_the_cache_s_pickling(game, fmt):
    # Check results carry their rules and are cached; a rule holding a lambda broke every
    # history page that cached one.
    found = ENGINES[game].format(fmt).validate(Deck(()))
    assert pickle.loads(pickle.dumps(ENGINES[game].format(fmt))).slug == fmt
    assert pickle.loads(pickle.dumps(found)) == found


@pytest.mark.parametrize(("game", "fmt"), EVERY_FORMAT)
def test_every_format_lists_the_empty_deck_rule_once(game, fmt):
    rules = ENGINES[game].format(fmt).rules
    assert sum(isinstance(rule, NotEmpty) for rule in rules) == 1


def test_a_format_that_names_the_empty_deck_rule_itself_does_not_get_it_twice():
    fmt = Format("test", "Test", "A test format.", rules=(NOT_EMPTY,))
    assert fmt.rules == (NOT_EMPTY,)


def test_a_deck_of_one_card_is_not_empty():
    assert NOT_EMPTY.check(Deck((card("Lone"),)), {}) == []


def test_the_faction_is_inferred_from_the_cards_when_not_given():
    deck = cards(40, factions=["Humans"]) + cards(10, prefix="Raceless")
    assert infer_faction(deck) == "Humans"
    assert infer_faction(cards(3)) is None


def test_errors_are_listed_before_warnings():
    fmt = Format(
        "test",
        "Test",
        "A test format.",
        rules=(
            ZoneSize(source="a test rule", minimum=21, severity=Severity.WARNING),
            CardLimit(source="a test rule", card_type="Celestial", maximum=1),
        ),
    )
    deck = Deck((*cards(18), card("Star", "Celestial"), card("Nova", "Celestial")))
    found = fmt.validate(deck)
    assert [(p.severity, p.code) for p in found] == [
        (Severity.ERROR, "type_limit"),
        (Severity.WARNING, "zone_size"),
    ]


def test_a_copy_limit_above_one_reports_copy_limit_with_the_excess():
    rule = CopyLimit(source="a test rule", maximum=3)
    deck = Deck((card("Grunt", quantity=2), card("Grunt", quantity=2), card("Other", quantity=3)))
    [problem] = rule.check(deck, {})
    assert (problem.code, problem.cards) == ("copy_limit", ("Grunt",))
    assert "Grunt appears 4 times" in problem.message and "(1 too many)" in problem.message


def test_every_rule_reads_as_a_sentence_of_its_own_for_the_game_page():
    for engine in ENGINES.values():
        for fmt in engine.formats:
            for rule in fmt.rules:
                sentence = rule.sentence(fmt.default_settings())
                assert sentence[0].isupper() and sentence.endswith("."), (engine.slug, sentence)
                assert rule.as_dict(fmt.default_settings())["sentence"] == sentence


def test_a_size_the_site_sets_is_stated_with_its_value_or_as_not_checked():
    rule = ZoneSize(source="s", setting="deck_size")
    assert rule.sentence({"deck_size": 40}) == (
        "The deck holds exactly 40 cards (the site's deck size setting)."
    )
    assert "that setting is empty, so any number passes" in rule.sentence({"deck_size": None})


def test_a_copy_limit_and_a_zone_reads_naturally():
    assert CopyLimit(source="s", maximum=1, zone="battle").sentence() == (
        "Each card appears at most once in the battle zone."
    )
    assert CopyLimit(source="s", maximum=3).sentence() == (
        "No card appears more than 3 times in the deck."
    )
    assert CardLimit(source="s", keyword="Apex").sentence() == "The deck holds at most 1 Apex card."
