import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count

from cardsite.catalogue.models import Card, CardSet, Faction, Keyword, Ruling, Term
from engines.filters.text import fold

pytestmark = pytest.mark.django_db


def sample(game: str):
    return Card.objects.filter(game__slug=game, card_set__is_official=False)


def test_loading_the_fixtures_again_duplicates_nothing_and_changes_nothing():
    models = [Card, CardSet, Faction, Keyword, Term, Ruling]
    before = {m: m.objects.count() for m in models}
    stamps = dict(Card.objects.values_list("id", "updated_at"))
    out = io.StringIO()
    call_command("load_games", stdout=out)
    assert {m: m.objects.count() for m in models} == before
    assert dict(Card.objects.values_list("id", "updated_at")) == stamps
    assert "0 cards created, 0 updated" in out.getvalue()


def test_every_game_has_exactly_one_sample_set_and_it_is_unofficial():
    counts = CardSet.objects.filter(is_official=False).values("game__slug").annotate(n=Count("id"))
    assert {c["game__slug"]: c["n"] for c in counts} == {
        "conquest-alpha-tactics": 1,
        "conquest-for-the-capital": 1,
        "conquest-of-fates": 1,
        "conquest-of-orion": 1,
        "fate-foretold": 1,
    }
    for card_set in CardSet.objects.filter(is_official=False):
        assert (
            "not official" in card_set.description.lower()
            or "unofficial" in card_set.description.lower()
        )


def test_official_sets_hold_only_official_factions():
    strays = Card.objects.filter(card_set__is_official=True, factions__is_official=False)
    assert not strays.exists()


def test_every_official_card_says_where_its_facts_come_from():
    assert not Card.objects.filter(card_set__is_official=True, source="").exists()


def test_fates_sample_has_a_full_deck_for_at_least_two_factions():
    per_faction = sample("conquest-of-fates").values("factions__name").annotate(n=Count("id"))
    full = [row for row in per_faction if row["n"] >= 21]  # three supply drops of 7
    assert len(full) >= 2
    for row in full:
        cards = sample("conquest-of-fates").filter(factions__name=row["factions__name"])
        assert cards.filter(card_type__name="Celestial").exists()
        assert cards.filter(keywords__name="Apex").exists()


def test_orion_sample_holds_a_fifty_card_one_race_deck_of_distinct_cards():
    deckable = sample("conquest-of-orion").exclude(card_type__zone="")
    raceless = deckable.filter(factions__isnull=True).count()
    for race in ["Humans"]:
        assert deckable.filter(factions__name=race).count() + raceless >= 50
    assert deckable.filter(factions__name="Aliens").count() + raceless >= 30  # Limited
    assert deckable.filter(card_type__name="Satellite").exists()
    assert sample("conquest-of-orion").filter(card_type__name="Planet").exists()


def test_fate_sample_holds_a_nest_of_sixty_unique_cards_sigils_and_tokens():
    cards = sample("fate-foretold")
    nest = cards.filter(card_type__name="Nest Card")
    assert nest.count() >= 60
    assert nest.values("name").distinct().count() == nest.count()
    assert all(c.factions.count() == 1 for c in nest)
    sigils = cards.filter(card_type__name="Sigil")
    assert sigils.count() == 6
    assert all(s.factions.count() == 2 for s in sigils)  # a Sigil aligns two suits
    assert cards.filter(card_type__name="Token").count() == 2


def test_capital_sample_gives_each_faction_twelve_battle_and_eight_upgrade_cards():
    for faction in ["Elves", "Orcs", "Undead", "Dwarves"]:
        cards = sample("conquest-for-the-capital").filter(factions__name=faction)
        assert cards.filter(card_type__name="Battle").count() == 12
        assert cards.filter(card_type__name="Upgrade").count() == 8
        assert cards.filter(card_type__name="Upgrade", rules_text__contains="up to 6").exists()


def test_tactics_sample_gives_each_faction_thirty_three_cards_and_the_game_24_targets():
    cards = sample("conquest-alpha-tactics")
    for faction in ["Starfleet", "Vulcan", "Romulan", "Klingon"]:
        assert cards.filter(factions__name=faction, card_type__zone="main").count() == 33
    targets = cards.filter(card_type__zone="targets")
    assert targets.count() == 24
    # 9.3 Short Game: every blue target goes but the rulebook's Earth, which leaves 16
    blue = targets.filter(stats__planet_type="federation")
    assert Card.objects.filter(card_set__code="TAC-RB", name="Earth").exists()
    assert targets.count() - blue.count() + 1 == 16


def test_tactics_sample_decks_are_functionally_identical():
    cards = sample("conquest-alpha-tactics").filter(card_type__zone="main")

    def profile(faction: str) -> list:
        return sorted(
            (c.card_type.name, c.stats.get("combat_power"), tuple(k.name for k in c.keywords.all()))
            for c in cards.filter(factions__name=faction).prefetch_related("keywords")
        )

    assert profile("Starfleet") == profile("Vulcan") == profile("Romulan") == profile("Klingon")


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize("game", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_no_sample_card_takes_the_name_of_an_official_card(game):
    # A shared name would let a decklist line, or the Short Game's named targets, pick up a
    # made-up card as if it were the rulebook's.
    def names(document: str) -> dict[str, str]:
        cards = json.loads((FIXTURES / game / document).read_text()).get("cards", [])
        return {fold(c["name"]): c["name"] for c in cards}

    official, samples = names("game.json"), names("sample.json")
    assert sorted(samples[n] for n in samples.keys() & official.keys()) == []
