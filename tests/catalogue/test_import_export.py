import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command

from cardsite.catalogue.documents import DocumentError, read_json
from cardsite.catalogue.models import Card, CardSet, Errata, Faction, Game, Keyword, Ruling, Term
from cardsite.catalogue.selectors import catalogue_document
from cardsite.catalogue.services import catalogue_import

pytestmark = pytest.mark.django_db

CSV_HEADER = "set,number,name,type,factions,keywords,attack,defence,stars,timing,text\n"


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def import_file(tmp_path, name: str, content: str, game: str) -> tuple[str, str]:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return run("import_cards", str(path), "--game", game)


def failing_import(tmp_path, name: str, content: str, game: str) -> tuple[str, str]:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported") as excinfo:
        call_command("import_cards", str(path), "--game", game, stdout=io.StringIO(), stderr=err)
    return str(excinfo.value), err.getvalue()


def test_a_good_csv_file_imports_every_row(tmp_path):
    out, _ = import_file(
        tmp_path,
        "capital.csv",
        CSV_HEADER
        + "CFC-SMP,101,Shield Wall,Battle,Dwarves,Replacement,1,3,,,Keep your units.\n"
        + "CFC-SMP,102,Forge Fire,Upgrade,Dwarves,,,,2,passive,\n",
        "conquest-for-the-capital",
    )
    assert "2 cards created" in out
    wall = Card.objects.get(card_set__code="CFC-SMP", number="101")
    assert wall.stats == {"attack": 1, "defence": 3}
    assert [f.name for f in wall.factions.all()] == ["Dwarves"]
    assert [k.name for k in wall.keywords.all()] == ["Replacement"]
    assert Card.objects.get(card_set__code="CFC-SMP", number="102").stats == {
        "stars": 2,
        "timing": "passive",
    }


def test_a_csv_file_with_a_bad_row_in_the_middle_imports_nothing_and_names_line_and_field(tmp_path):
    before = Card.objects.count()
    rows = [f"CFC-SMP,{200 + i},Good Card {i},Battle,Orcs,,1,1,,,\n" for i in range(6)]
    rows[3] = "CFC-SMP,203,Bad Card,Battle,Orcs,,lots,1,,,\n"
    message, errors = failing_import(
        tmp_path, "bad.csv", CSV_HEADER + "".join(rows), "conquest-for-the-capital"
    )
    assert "1 problem(s)" in message
    assert "line 5, stats.attack: expected a whole number, got 'lots'" in errors
    assert Card.objects.count() == before


def test_every_bad_row_is_reported_not_just_the_first(tmp_path):
    content = CSV_HEADER + (
        "CFC-SMP,301,Fine,Battle,Orcs,,1,1,,,\n"
        "CFC-SMP,302,No Such Faction,Battle,Goblins,,1,1,,,\n"
        "NOPE,303,No Such Set,Battle,Orcs,,1,1,,,\n"
        "CFC-SMP,304,Too Many Stars,Upgrade,Orcs,,,,5,active,\n"
        "CFC-SMP,305,Odd Timing,Upgrade,Orcs,,,,1,sometimes,\n"
        "CFC-SMP,306,,Spell,Orcs,,,,,,\n"
    )
    _, errors = failing_import(tmp_path, "many.csv", content, "conquest-for-the-capital")
    assert "line 3, factions: unknown faction 'Goblins'" in errors
    assert "line 4, set: unknown set 'NOPE'" in errors
    assert "line 5, stats.stars: must be at most 3, got 5" in errors
    assert "line 6, stats.timing: expected one of active, passive, got 'sometimes'" in errors
    assert "line 7, name: is required" in errors
    assert "line 7, type: 'Spell' is not a Conquest for the Capital card type" in errors


def test_an_unknown_faction_gets_a_did_you_mean(tmp_path):
    _, errors = failing_import(
        tmp_path,
        "typo.csv",
        CSV_HEADER + "CFC-SMP,401,X,Battle,Dwarfs,,1,1,,,\n",
        "conquest-for-the-capital",
    )
    assert "did you mean 'Dwarves'?" in errors


def test_a_csv_column_that_is_not_a_stat_of_the_game_is_rejected_by_name(tmp_path):
    _, errors = failing_import(
        tmp_path,
        "cols.csv",
        "set,number,name,type,cq\nCFC-SMP,1,X,Battle,3\n",
        "conquest-for-the-capital",
    )
    assert (
        "line 1, cq: unknown column; stat columns for this game: attack, defence, stars, timing"
        in errors
    )


def test_a_multiline_csv_cell_does_not_throw_off_the_line_numbers(tmp_path):
    content = CSV_HEADER + (
        'CFC-SMP,501,Long Text,Battle,Orcs,,1,1,,,"first line\nsecond line"\n'
        "CFC-SMP,502,Broken,Battle,Orcs,,x,1,,,\n"
    )
    _, errors = failing_import(tmp_path, "multi.csv", content, "conquest-for-the-capital")
    assert "line 4, stats.attack" in errors


def test_a_json_file_with_a_bad_card_names_the_line_the_card_starts_on(tmp_path):
    cards = [
        {
            "set": "COF-SMP",
            "number": str(900 + i),
            "name": f"Unit {i}",
            "type": "Unit",
            "stats": {"cq": i},
        }
        for i in range(3)
    ]
    cards[2]["stats"] = {"cq": "high", "speed": 2}
    text = json.dumps({"cards": cards}, indent=2)
    expected_line = [n for n, line in enumerate(text.splitlines(), 1) if line == "    {"][2]
    before = Card.objects.count()
    _, errors = failing_import(tmp_path, "cards.json", text, "conquest-of-fates")
    assert f"line {expected_line}, stats.cq: expected a whole number, got 'high'" in errors
    assert f"line {expected_line}, stats.speed: unknown stat for Conquest of Fates" in errors
    assert Card.objects.count() == before


def test_broken_json_is_reported_with_its_line_and_column(tmp_path):
    _, errors = failing_import(
        tmp_path, "broken.json", '{"cards": [\n  {"name": "x",}\n]}', "conquest-of-fates"
    )
    assert "line 2: not valid JSON" in errors
    assert "(column 16)" in errors


def test_a_file_for_another_game_is_refused(tmp_path):
    doc = {"game": {"slug": "fate-foretold"}, "cards": []}
    _, errors = failing_import(tmp_path, "other.json", json.dumps(doc), "conquest-of-fates")
    assert "game.slug: this file is for 'fate-foretold', not 'conquest-of-fates'" in errors


def test_a_file_that_is_not_utf8_is_refused_with_its_line(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes(
        CSV_HEADER.encode() + "CFC-SMP,1,Caf\xe9,Battle,Orcs,,1,1,,,\n".encode("latin-1")
    )
    with pytest.raises(CommandError):
        call_command(
            "import_cards",
            str(path),
            "--game",
            "conquest-for-the-capital",
            stdout=io.StringIO(),
            stderr=(err := io.StringIO()),
        )
    assert "line 2: the file is not UTF-8 text" in err.getvalue()


def test_a_failed_import_leaves_existing_cards_untouched(tmp_path):
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    updated_at = card.updated_at
    doc = {
        "cards": [
            {
                "set": "ORI-RB",
                "number": card.number,
                "name": "Renamed",
                "type": "Unit",
                "stats": {"damage": 9},
            },
            {
                "set": "ORI-RB",
                "number": "999",
                "name": "Bad",
                "type": "Unit",
                "stats": {"damage": -1},
            },
        ]
    }
    _, errors = failing_import(tmp_path, "update.json", json.dumps(doc), "conquest-of-orion")
    assert "stats.damage: must be at least 0, got -1" in errors
    card.refresh_from_db()
    assert (card.name, card.stats, card.updated_at) == (
        "Cloudglider",
        {"damage": 4, "health": 5},
        updated_at,
    )


def test_importing_the_same_card_again_updates_it_in_place(tmp_path):
    card = Card.objects.get(card_set__code="COF-SMP", number="1")
    doc = catalogue_document(game=card.game)
    [record] = [c for c in doc["cards"] if c["set"] == "COF-SMP" and c["number"] == "1"]
    record["stats"] = {"cq": 9}
    out, _ = import_file(tmp_path, "one.json", json.dumps({"cards": [record]}), "conquest-of-fates")
    assert "0 cards created, 1 updated" in out
    card.refresh_from_db()
    assert card.stats == {"cq": 9}
    assert card.short_id == record["short_id"]


def test_a_large_file_shows_a_progress_bar(tmp_path):
    cards = [
        {
            "set": "COF-SMP",
            "number": str(5000 + i),
            "name": f"Bulk {i}",
            "type": "Unit",
            "factions": [],
            "stats": {"cq": i % 7},
        }
        for i in range(1200)
    ]
    _, err = import_file(tmp_path, "bulk.json", json.dumps({"cards": cards}), "conquest-of-fates")
    assert "Importing bulk.json" in err
    assert "1200/1200" in err


def _wipe(game: Game) -> None:
    Card.objects.filter(game=game).delete()
    CardSet.objects.filter(game=game).delete()
    for model in (Faction, Keyword, Term):
        model.objects.filter(game=game).delete()
    game.rarities.all().delete()
    game.subtypes.all().delete()
    game.delete()


@pytest.mark.parametrize(
    "slug",
    [
        "conquest-of-orion",
        "fate-foretold",
        "conquest-alpha-tactics",
        "conquest-for-the-capital",
        "conquest-of-fates",
    ],
)
def test_exporting_and_importing_into_an_empty_database_gives_the_same_catalogue(slug, tmp_path):
    json_path = tmp_path / "export.json"
    run("export_cards", "--game", slug, "--output", str(json_path))
    before = json.loads(json_path.read_text())
    assert before["cards"], "the fixtures should give every game some cards"

    _wipe(Game.objects.get(slug=slug))
    assert not Card.objects.filter(game__slug=slug).exists()
    run("import_cards", str(json_path), "--game", slug)

    after = catalogue_document(game=Game.objects.get(slug=slug))
    assert after == before


def test_a_csv_export_imports_back_to_the_same_cards(tmp_path):
    slug = "fate-foretold"
    game = Game.objects.get(slug=slug)
    before = catalogue_document(game=game)
    csv_path = tmp_path / "fate.csv"
    run("export_cards", "--game", slug, "--format", "csv", "--output", str(csv_path))

    Card.objects.filter(game=game).delete()
    assert not Ruling.objects.filter(card__game=game).exists()
    run("import_cards", str(csv_path), "--game", slug)

    after = catalogue_document(game=game)
    assert after["cards"] == before["cards"]
    insight = Card.objects.get(card_set__code="FF-RB", name="The Insight")
    assert Errata.objects.filter(card=insight).count() == 1


def test_the_service_reports_problems_without_touching_the_database():
    document = read_json(
        json.dumps(
            {
                "cards": [
                    {
                        "set": "COF-SMP",
                        "number": "1",
                        "name": "X",
                        "type": "Unit",
                        "stats": {"cq": 1.5},
                    }
                ]
            }
        )
    )
    with pytest.raises(DocumentError) as excinfo:
        catalogue_import(game_slug="conquest-of-fates", document=document)
    [problem] = excinfo.value.problems
    assert (problem.line, problem.field) == (1, "stats.cq")


def test_a_subtype_named_twice_on_one_card_links_it_once(tmp_path):
    # As factions and keywords already were; the database would refuse the second link.
    out, _ = import_file(
        tmp_path,
        "twice.json",
        json.dumps(
            {
                "cards": [
                    {
                        "set": "ORI-SMP",
                        "number": "901",
                        "name": "Twice a Soldier",
                        "type": "Unit",
                        "subtypes": ["Soldier", "soldier", "Pilot", "Soldier"],
                    }
                ]
            }
        ),
        "conquest-of-orion",
    )
    assert "1 cards created" in out
    card = Card.objects.get(card_set__code="ORI-SMP", number="901")
    assert sorted(s.slug for s in card.subtypes.all()) == ["pilot", "soldier"]


# --- cards whose type the source does not state, and inferred values ----------------------


def test_a_json_card_without_a_type_imports_as_a_card_with_no_type(tmp_path):
    cards = [
        {"set": "TAC-SMP", "number": "901", "name": "No Type Key"},
        {"set": "TAC-SMP", "number": "902", "name": "Null Type", "type": None},
        {"set": "TAC-SMP", "number": "903", "name": "Empty Type", "type": ""},
    ]
    out, _ = import_file(
        tmp_path, "untyped.json", json.dumps({"cards": cards}), "conquest-alpha-tactics"
    )
    assert "3 cards created" in out
    imported = Card.objects.filter(card_set__code="TAC-SMP", number__in=["901", "902", "903"])
    assert [c.card_type for c in imported] == [None, None, None]


def test_a_csv_file_without_a_type_column_imports_cards_with_no_type(tmp_path):
    out, _ = import_file(
        tmp_path,
        "untyped.csv",
        "set,number,name,combat_power\nTAC-SMP,904,Typeless,4\n",
        "conquest-alpha-tactics",
    )
    assert "1 cards created" in out
    card = Card.objects.get(card_set__code="TAC-SMP", number="904")
    assert (card.card_type, card.stats) == (None, {"combat_power": 4})


def test_a_card_with_no_stated_type_round_trips_through_json(tmp_path):
    slug = "conquest-alpha-tactics"
    json_path = tmp_path / "tactics.json"
    run("export_cards", "--game", slug, "--output", str(json_path))
    exported = {c["name"]: c for c in json.loads(json_path.read_text())["cards"]}
    assert exported["Galaxy"]["type"] is None
    assert exported["Surak"]["inferred"] == ["stats.combat_power", "keywords"]

    game = Game.objects.get(slug=slug)
    before = catalogue_document(game=game)
    Card.objects.filter(game=game).delete()
    run("import_cards", str(json_path), "--game", slug)
    assert catalogue_document(game=game)["cards"] == before["cards"]
    assert Card.objects.get(card_set__code="TAC-RB", name="Galaxy").card_type is None


def test_a_card_with_no_stated_type_round_trips_through_csv(tmp_path):
    slug = "conquest-alpha-tactics"
    game = Game.objects.get(slug=slug)
    before = catalogue_document(game=game)
    csv_path = tmp_path / "tactics.csv"
    run("export_cards", "--game", slug, "--format", "csv", "--output", str(csv_path))
    rows = {row["name"]: row for row in csv.DictReader(io.StringIO(csv_path.read_text()))}
    assert rows["Galaxy"]["type"] == ""
    assert rows["Vor'Cha"]["inferred"] == "stats.combat_power; keywords"

    Card.objects.filter(game=game).delete()
    run("import_cards", str(csv_path), "--game", slug)
    assert catalogue_document(game=game)["cards"] == before["cards"]


def test_importing_a_card_with_no_type_a_second_time_leaves_it_unchanged(tmp_path):
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    [record] = [c for c in catalogue_document(game=galaxy.game)["cards"] if c["name"] == "Galaxy"]
    text = json.dumps({"cards": [record]})
    import_file(tmp_path, "once.json", text, "conquest-alpha-tactics")
    out, _ = import_file(tmp_path, "twice.json", text, "conquest-alpha-tactics")
    assert "0 cards created, 0 updated, 1 unchanged" in out
    galaxy.refresh_from_db()
    assert galaxy.card_type is None


def test_an_inferred_field_the_card_does_not_have_is_refused_by_name(tmp_path):
    card = {
        "set": "TAC-SMP",
        "number": "905",
        "name": "Odd Inference",
        "inferred": ["stats.combat_power", "stats.attack"],
    }
    _, errors = failing_import(
        tmp_path, "inferred.json", json.dumps({"cards": [card]}), "conquest-alpha-tactics"
    )
    assert "inferred: unknown field 'stats.attack'" in errors


def test_inferred_must_be_a_list_of_field_names(tmp_path):
    card = {"set": "TAC-SMP", "number": "906", "name": "Odd", "inferred": "keywords"}
    _, errors = failing_import(
        tmp_path, "inferred.json", json.dumps({"cards": [card]}), "conquest-alpha-tactics"
    )
    assert "inferred: must be a list of field names" in errors
