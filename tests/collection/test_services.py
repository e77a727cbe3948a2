import pytest

from cardsite.catalogue.models import Card
from cardsite.collection.models import MAX_QUANTITY, CollectionCard
from cardsite.collection.services import (
    MAX_IMPORT_LINES,
    CollectionImportError,
    collection_adjust,
    collection_export,
    collection_import,
    collection_set_quantity,
)
from engines.errors import InputError
from tests.collection.conftest import GAME

pytestmark = pytest.mark.django_db


def held(user):
    return dict(CollectionCard.objects.filter(owner=user).values_list("card_id", "quantity"))


def test_a_quantity_may_be_set_from_0_to_999_and_0_removes_the_row(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=MAX_QUANTITY)
    assert held(alice) == {cards[0].id: 999}
    collection_set_quantity(owner=alice, card=cards[0], quantity=0)
    assert held(alice) == {}


@pytest.mark.parametrize("quantity", [1000, -1, 10**30])
def test_a_quantity_past_the_limit_names_quantity_and_the_limit_and_stores_nothing(
    alice, cards, quantity
):
    with pytest.raises(InputError) as refused:
        collection_set_quantity(owner=alice, card=cards[0], quantity=quantity)
    assert refused.value.field == "quantity"
    assert "999" in refused.value.message
    assert held(alice) == {}


def test_plus_and_minus_stay_within_0_and_999_without_an_error(alice, cards):
    assert collection_adjust(owner=alice, card=cards[0], delta=-1) == 0
    assert collection_adjust(owner=alice, card=cards[0], delta=1) == 1
    collection_set_quantity(owner=alice, card=cards[0], quantity=999)
    assert collection_adjust(owner=alice, card=cards[0], delta=1) == 999
    assert collection_adjust(owner=alice, card=cards[0], delta=-1) == 998


def test_a_pasted_list_adds_copies_by_name_and_by_printing(alice, cards):
    a, b = cards[0], cards[1]
    text = f"3 {a.name}\n2x {b.name} ({b.card_set.code}) {b.number}\n{a.name}\n"
    result = collection_import(owner=alice, game=GAME, text=text)
    assert held(alice) == {a.id: 4, b.id: 2}
    assert (result.printings, result.copies) == (2, 6)
    collection_import(owner=alice, game=GAME, text=f"1 {a.name}")
    assert held(alice)[a.id] == 5


def test_an_import_with_any_problem_stores_nothing_and_names_every_line(alice, cards):
    text = (
        f"3 {cards[0].name}\n2 No Such Card At All\n1000 {cards[1].name}\n"
        f"1 {cards[2].name} (CFC-SMP) 999\n"
    )
    with pytest.raises(CollectionImportError) as refused:
        collection_import(owner=alice, game=GAME, text=text)
    assert [p.line for p in refused.value.problems] == [2, 3, 4]
    assert "1 to 999" in str(refused.value)
    assert held(alice) == {}


def test_an_import_past_999_copies_of_a_printing_names_its_line(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=990)
    with pytest.raises(CollectionImportError) as refused:
        collection_import(owner=alice, game=GAME, text=f"\n\n10 {cards[0].name}")
    assert [p.line for p in refused.value.problems] == [3]
    assert held(alice) == {cards[0].id: 990}


def test_replace_makes_the_games_collection_exactly_the_list(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    other = Card.objects.exclude(game__slug=GAME).first()
    collection_set_quantity(owner=alice, card=other, quantity=2)
    collection_import(owner=alice, game=GAME, text=f"1 {cards[1].name}", mode="replace")
    assert held(alice) == {cards[1].id: 1, other.id: 2}


@pytest.mark.parametrize("text", ["", "  \n\t\n", "# my binder\n\nBattle:\n# none yet\n"])
def test_a_replace_by_a_list_naming_no_card_empties_the_game_only_when_confirmed(
    alice, cards, text
):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    with pytest.raises(InputError) as refused:
        collection_import(owner=alice, game=GAME, text=text, mode="replace")
    assert refused.value.field == "confirm_empty"
    assert "names no card" in refused.value.message
    assert held(alice) == {cards[0].id: 5}
    emptied = collection_import(
        owner=alice, game=GAME, text=text, mode="replace", confirm_empty=True
    )
    assert (emptied.printings, emptied.copies) == (0, 0)
    assert held(alice) == {}


def test_a_csv_of_a_header_alone_replaces_nothing_unless_confirmed(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    with pytest.raises(InputError) as refused:
        collection_import(owner=alice, game=GAME, csv="set,number,quantity\n", mode="replace")
    assert refused.value.field == "confirm_empty"
    assert held(alice) == {cards[0].id: 5}


def test_an_empty_list_may_still_be_added_and_a_replace_with_problems_lists_them(alice, cards):
    collection_set_quantity(owner=alice, card=cards[0], quantity=5)
    assert collection_import(owner=alice, game=GAME, text="").printings == 0
    with pytest.raises(CollectionImportError):
        collection_import(owner=alice, game=GAME, text="2 Nothing Like This", mode="replace")
    assert held(alice) == {cards[0].id: 5}


def test_a_csv_may_name_printings_by_set_and_number(alice, cards):
    a, b = cards[0], cards[1]
    csv = (
        f"set,number,quantity\n{a.card_set.code},{a.number},3\n"
        f"{b.card_set.code.lower()},{b.number},1\n"
    )
    collection_import(owner=alice, game=GAME, csv=csv)
    assert held(alice) == {a.id: 3, b.id: 1}


def test_a_csv_may_name_cards_by_name(alice, cards):
    csv = f'Name,Quantity\n"{cards[0].name}",2\n'
    collection_import(owner=alice, game=GAME, csv=csv)
    assert held(alice) == {cards[0].id: 2}


@pytest.mark.parametrize("cell", ["NaN", "²", "-1", "0", "1.5", "1e3", "inf", "", "٣", "1000"])
def test_a_csv_quantity_that_is_not_1_to_999_in_ascii_digits_names_its_line(alice, cards, cell):
    csv = f"name,quantity\n{cards[0].name},1\n{cards[1].name},{cell}\n"
    with pytest.raises(CollectionImportError) as refused:
        collection_import(owner=alice, game=GAME, csv=csv)
    assert [(p.line, p.field) for p in refused.value.problems] == [(3, "quantity")]
    assert held(alice) == {}


def test_a_csv_without_a_usable_header_is_one_problem_on_line_1(alice):
    with pytest.raises(CollectionImportError) as refused:
        collection_import(owner=alice, game=GAME, csv="card,count\nx,1\n")
    assert {p.line for p in refused.value.problems} == {1}


def test_an_import_of_more_than_10000_lines_names_the_limit_before_reading_a_card(alice):
    with pytest.raises(InputError) as refused:
        collection_import(owner=alice, game=GAME, text="1 x\n" * (MAX_IMPORT_LINES + 1))
    assert refused.value.field == "text"
    assert "10,000 lines" in refused.value.message


def test_a_name_that_different_cards_share_must_give_its_printing(alice, cards):
    a, b = cards[0], cards[1]
    Card.objects.filter(pk=b.pk).update(name=a.name, search_name=a.search_name)
    with pytest.raises(CollectionImportError) as refused:
        collection_import(owner=alice, game=GAME, text=f"\n2 {a.name}")
    assert [(p.line, p.field) for p in refused.value.problems] == [(2, "name")]
    collection_import(owner=alice, game=GAME, text=f"2 {a.name} ({a.card_set.code}) {a.number}")
    assert held(alice) == {a.id: 2}


@pytest.mark.parametrize("as_", ["text", "csv"])
def test_export_then_import_gives_back_the_same_collection(alice, bob, cards, as_):
    for n, card in enumerate(cards, start=1):
        collection_set_quantity(owner=alice, card=card, quantity=n * 7)
    written = collection_export(owner=alice, as_=as_, game=GAME)
    if as_ == "text":
        collection_import(owner=bob, game=GAME, text=written)
    else:
        collection_import(owner=bob, game=GAME, csv=written)
    assert held(bob) == held(alice)
    assert collection_export(owner=bob, as_=as_, game=GAME) == written


def test_a_csv_export_of_every_game_names_each_rows_game_and_imports_back(alice, bob, cards):
    other = Card.objects.exclude(game__slug=GAME).first()
    collection_set_quantity(owner=alice, card=other, quantity=4)
    collection_set_quantity(owner=alice, card=cards[0], quantity=1)
    written = collection_export(owner=alice, as_="csv")
    assert written.startswith("game,set,number,name,quantity\n")
    collection_import(owner=bob, csv=written)
    assert held(bob) == held(alice)


def test_a_csv_export_quotes_cells_a_spreadsheet_would_run_and_import_restores_them(
    alice, bob, cards
):
    Card.objects.filter(pk=cards[0].pk).update(name="=HYPERLINK(1)", search_name="=hyperlink(1)")
    collection_set_quantity(owner=alice, card=cards[0], quantity=2)
    written = collection_export(owner=alice, as_="csv", game=GAME)
    assert "'=HYPERLINK(1)" in written
    collection_import(owner=bob, game=GAME, csv=written)
    assert held(bob) == {cards[0].id: 2}


def test_an_import_costs_the_same_queries_for_80_printings_as_for_2(alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    every = list(Card.objects.filter(card_set__code="CFC-SMP").select_related("card_set"))
    lines = [f"{1 + n % 5} {c.name} ({c.card_set.code}) {c.number}" for n, c in enumerate(every)]
    collection_import(owner=alice, game=GAME, text=lines[0])  # the game's snapshot, read once
    counts = []
    for owner, chosen in ((alice, lines[:2]), (bob, lines)):
        with CaptureQueriesContext(connection) as queries:
            collection_import(owner=owner, game=GAME, text="\n".join(chosen))
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert len(held(bob)) == len(every)


def test_a_pasted_lists_trailing_note_is_dropped_unless_a_card_is_named_with_it(alice, cards):
    a, b = cards[0], cards[1]
    b.name = "Front // Back"
    b.save()
    text = f"3 {a.name} // from the league\n2 Front // Back\n1 {a.name} # spare\n"
    collection_import(owner=alice, game=GAME, text=text)
    assert held(alice) == {a.id: 4, b.id: 2}
