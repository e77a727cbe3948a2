"""A CSV export never hands a spreadsheet a formula: a text cell starting with =, +, -, @, tab
or carriage return gets a leading apostrophe (OWASP's advice on CSV injection), and importing
the file takes it away again, so export then import gives back the same catalogue."""

import csv
import io

import pytest
from django.core.management import call_command

from cardsite.catalogue.models import Card, Game, Subtype
from cardsite.catalogue.selectors import catalogue_document

pytestmark = pytest.mark.django_db
GAME = "conquest-of-fates"


@pytest.fixture
def hostile_card():
    card = Card.objects.filter(card_set__code="COF-SMP", stats__has_key="cq").first()
    card.name = '=HYPERLINK("http://evil.example","Click")'
    card.rules_text = "+1 CQ to each allied unit."
    card.flavour_text = "@SUM(1+1)*cmd|' /C calc'!A0"
    card.artist = "-2+3+cmd|' /C calc'!A0"
    card.notes = "'=already quoted by its author"
    card.stats = {"cq": -2}
    card.save()
    card.subtypes.set([Subtype.objects.create(game=card.game, name="=Evil", slug="evil")])
    return card


def export(tmp_path) -> str:
    path = tmp_path / "cards.csv"
    call_command("export_cards", "--game", GAME, "--format", "csv", "-o", str(path))
    return path.read_text(encoding="utf-8")


def test_text_cells_that_a_spreadsheet_would_run_are_written_as_text(tmp_path, hostile_card):
    rows = list(csv.DictReader(io.StringIO(export(tmp_path))))
    row = next(r for r in rows if r["number"] == hostile_card.number)
    assert row["name"] == '\'=HYPERLINK("http://evil.example","Click")'
    assert row["text"] == "'+1 CQ to each allied unit."
    assert row["flavour"] == "'@SUM(1+1)*cmd|' /C calc'!A0"
    assert row["artist"] == "'-2+3+cmd|' /C calc'!A0"
    assert row["subtypes"] == "'=Evil"
    assert row["notes"] == "''=already quoted by its author"
    formula_starts = ("=", "+", "-", "@", "\t", "\r")
    for r in rows:
        for column, cell in r.items():
            if column != "cq":
                assert not cell.startswith(formula_starts), (column, cell)


def test_a_negative_stat_is_still_written_as_a_number(tmp_path, hostile_card):
    rows = list(csv.DictReader(io.StringIO(export(tmp_path))))
    assert next(r for r in rows if r["number"] == hostile_card.number)["cq"] == "-2"


def test_export_then_import_gives_back_the_same_catalogue(tmp_path, hostile_card):
    game = Game.objects.get(slug=GAME)
    before = catalogue_document(game=game)["cards"]
    text = export(tmp_path)

    Card.objects.filter(game=game).delete()
    path = tmp_path / "again.csv"
    path.write_text(text, encoding="utf-8")
    call_command("import_cards", str(path), "--game", GAME, stdout=io.StringIO())

    after = catalogue_document(game=game)["cards"]
    assert after == before
    card = Card.objects.get(short_id=hostile_card.short_id)
    assert card.name == '=HYPERLINK("http://evil.example","Click")'
    assert card.notes == "'=already quoted by its author"
    assert card.stats == {"cq": -2}
    assert [s.name for s in card.subtypes.all()] == ["=Evil"]


def test_an_apostrophe_before_anything_else_is_kept_on_import(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(
        "set,number,name,text\nCOF-SMP,900,'Tis the Season,'twas said\n", encoding="utf-8"
    )
    call_command("import_cards", str(path), "--game", GAME, stdout=io.StringIO())
    card = Card.objects.get(card_set__code="COF-SMP", number="900")
    assert (card.name, card.rules_text) == ("'Tis the Season", "'twas said")
