import pytest
from django.core.exceptions import ValidationError

from cardsite.catalogue.models import Card, CardSet, CardType, Game
from cardsite.catalogue.short_ids import is_valid_short_id, short_id_for

pytestmark = pytest.mark.django_db


def new_card(**overrides) -> Card:
    game = Game.objects.get(slug="conquest-of-fates")
    fields = {
        "game": game,
        "card_set": CardSet.objects.get(code="COF-SMP"),
        "number": "500",
        "name": "Test Unit",
        "card_type": CardType.objects.get(game=game, slug="unit"),
        "stats": {"cq": 2},
    }
    fields.update(overrides)
    return Card(**fields)


def test_a_card_with_valid_stats_passes_model_validation():
    new_card().full_clean()


def test_a_card_with_an_unknown_stat_fails_model_validation_naming_it():
    with pytest.raises(ValidationError) as excinfo:
        new_card(stats={"cq": 2, "speed": 1}).full_clean()
    assert "speed: unknown stat" in str(excinfo.value.message_dict["stats"])


def test_a_card_whose_set_belongs_to_another_game_is_invalid():
    with pytest.raises(ValidationError) as excinfo:
        new_card(card_set=CardSet.objects.get(code="ORI-SMP")).full_clean()
    assert "card_set" in excinfo.value.message_dict


def test_the_short_id_is_derived_from_game_set_and_number_and_survives_a_fresh_database():
    card = new_card()
    card.save()
    assert card.short_id == short_id_for("conquest-of-fates", "COF-SMP", "500")
    assert is_valid_short_id(card.short_id)


def test_collector_numbers_sort_as_numbers():
    numbers = list(
        Card.objects.filter(card_set__code="COF-SMP").values_list("number", flat=True)[:12]
    )
    assert numbers == [str(n) for n in range(1, 13)]


def test_every_loaded_card_has_a_distinct_valid_short_id():
    ids = list(Card.objects.values_list("short_id", flat=True))
    assert len(ids) == len(set(ids))
    assert all(is_valid_short_id(i) for i in ids)


def test_the_catalogue_version_never_repeats_after_the_cache_is_emptied():
    from django.core.cache import cache

    from cardsite.catalogue.versioning import bump_catalogue_version, catalogue_version

    first = catalogue_version()
    bump_catalogue_version()
    bumped = catalogue_version()
    cache.clear()
    assert len({first, bumped, catalogue_version()}) == 3


def test_a_card_with_no_stated_type_passes_model_validation():
    card = new_card(card_type=None)
    card.full_clean()
    card.save()
    assert Card.objects.get(pk=card.pk).card_type is None


def test_a_card_may_list_its_inferred_fields_by_their_document_names():
    new_card(inferred=["stats.cq", "keywords"]).full_clean()


def test_an_inferred_field_the_game_does_not_have_fails_model_validation_naming_it():
    with pytest.raises(ValidationError) as excinfo:
        new_card(inferred=["stats.combat_power"]).full_clean()
    assert "unknown field 'stats.combat_power'" in excinfo.value.message_dict["inferred"][0]
