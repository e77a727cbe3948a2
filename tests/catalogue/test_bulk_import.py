"""100,000 cards imported in one transaction; a bad row in the middle leaves the database as it was.

Every test writes a real JSON file and imports it with the import_cards command, as an operator
would. The cards come from cardsite/catalogue/synthetic.py, the generator behind the
synthetic_catalogue command the search benchmark loads. The file holds one card per line, so
the line an error names can be checked against the file itself.

"As it was" is checked row by row: a digest of every catalogue table, through tables included,
taken before the import and compared after it.
"""

import hashlib
import io
import json
import random
import threading
import time

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import connection, connections, transaction

from cardsite.catalogue.documents import FORMAT, VERSION
from cardsite.catalogue.models import Card, CardSet, CardType, Faction, Game, Keyword, Rarity
from cardsite.catalogue.short_ids import short_id_for
from cardsite.catalogue.synthetic import SET_CODE, synthetic_cards, synthetic_set
from engines import ENGINES

GAME = "conquest-of-orion"
CARDS = 100_000
BAD = 50_000


def vocabulary() -> dict[str, list[str]]:
    """The faction, keyword and rarity names the game's fixtures gave it, for the generator."""
    game = Game.objects.get(slug=GAME)
    return {
        key: list(model.objects.filter(game=game).order_by("name").values_list("name", flat=True))
        for key, model in (("factions", Faction), ("keywords", Keyword), ("rarities", Rarity))
    }


def synthetic(count: int = CARDS) -> list[dict]:
    return list(
        synthetic_cards(ENGINES[GAME], count=count, rng=random.Random(2024), **vocabulary())
    )


def write_catalogue(path, cards, **sections):
    """A catalogue file in import_cards' JSON format, each card on a line of its own."""
    head = json.dumps({"format": FORMAT, "version": VERSION, **sections}, ensure_ascii=False)
    body = ",\n".join(json.dumps(card, ensure_ascii=False) for card in cards)
    path.write_text(f'{head[:-1]},\n"cards": [\n{body}\n]}}\n', encoding="utf-8")
    return path


def line_of(path, fragment: str) -> int:
    """The line of `path` that holds `fragment`, read back from the file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    matches = [n for n, line in enumerate(lines, start=1) if fragment in line]
    assert len(matches) == 1, matches
    return matches[0]


def import_cards(path) -> str:
    out = io.StringIO()
    call_command("import_cards", str(path), "--game", GAME, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def refused_import(path) -> tuple[str, list[str]]:
    """The command's failure and the problems it printed, one per line."""
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported") as refusal:
        call_command("import_cards", str(path), "--game", GAME, stdout=io.StringIO(), stderr=err)
    # The progress bar shares standard error; the problems are the lines naming the file.
    return str(refusal.value), [line for line in err.getvalue().splitlines() if str(path) in line]


def catalogue_fingerprint() -> dict[str, tuple[int, str]]:
    """Each catalogue table's row count and a digest of all its rows, in primary-key order."""
    tables = {}
    for model in apps.get_app_config("catalogue").get_models(include_auto_created=True):
        columns = [field.attname for field in model._meta.concrete_fields]
        digest, count = hashlib.sha256(), 0
        rows = model.objects.order_by("pk").values_list(*columns)
        for row in rows.iterator(chunk_size=5000):
            digest.update(json.dumps(row, sort_keys=True, default=str).encode())
            count += 1
        tables[model._meta.db_table] = (count, digest.hexdigest())
    return tables


def sample_card() -> Card:
    return Card.objects.get(game__slug=GAME, card_set__code="ORI-SMP", number="1")


def changed(card: Card) -> dict:
    """A row of the import file that would rewrite an existing card."""
    return {
        "set": card.card_set.code,
        "number": card.number,
        "name": "Colonial Marine, Renamed",
        "type": card.card_type.name,
        "text": "A rewrite that must never land.",
        "stats": card.stats,
    }


def remembered(card: Card) -> dict:
    return {
        field: getattr(card, field)
        for field in ("name", "rules_text", "stats", "short_id", "content_hash", "updated_at")
    }


@pytest.mark.django_db
def test_a_file_of_100000_cards_imports_in_one_call_and_every_card_is_there(tmp_path):
    cards = synthetic()
    path = write_catalogue(tmp_path / "synthetic.json", cards, sets=[synthetic_set()])
    before = Card.objects.count()

    out = import_cards(path)

    assert f"{CARDS} cards created, 0 updated, 0 unchanged" in out
    assert Card.objects.count() == before + CARDS
    stored = Card.objects.filter(game__slug=GAME, card_set__code=SET_CODE)

    def by_number(*fields):
        return {row[0]: row[1:] for row in stored.values_list("number", *fields)}

    assert by_number("name", "card_type__name", "rarity__name", "rules_text", "stats") == {
        c["number"]: (c["name"], c["type"], c["rarity"], c["text"], c["stats"]) for c in cards
    }
    assert set(stored.filter(factions__isnull=False).values_list("number", "factions__name")) == {
        (c["number"], name) for c in cards for name in c["factions"]
    }
    assert set(stored.filter(keywords__isnull=False).values_list("number", "keywords__name")) == {
        (c["number"], name) for c in cards for name in c["keywords"]
    }
    assert len(set(stored.values_list("short_id", flat=True))) == CARDS


@pytest.mark.django_db
def test_the_same_file_with_a_bad_row_at_card_50000_is_refused_and_leaves_all_as_it_was(
    tmp_path,
):
    cards = synthetic()
    cards[BAD - 1]["stats"]["damage"] = "lots"
    marine = sample_card()
    path = write_catalogue(
        tmp_path / "synthetic.json", [*cards, changed(marine)], sets=[synthetic_set()]
    )
    bad_line = line_of(path, f'"number": "{BAD}"')
    before, marine_before = catalogue_fingerprint(), remembered(marine)

    message, problems = refused_import(path)

    assert "1 problem(s)" in message
    assert problems == [
        f"{path}: line {bad_line}, stats.damage: expected a whole number, got 'lots'"
    ]
    assert catalogue_fingerprint() == before
    assert remembered(sample_card()) == marine_before
    assert not CardSet.objects.filter(game__slug=GAME, code=SET_CODE).exists()


# --- failures that only the database sees ---------------------------------------------------
# These run outside the suite's per-test transaction, so that the import's transaction is a
# real one that commits or rolls back, as in production, and not a savepoint inside the
# test's. They leave nothing behind when they pass; `committed` tidies up when they do not.


@pytest.fixture
def committed(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        try:
            yield
        finally:
            Card.objects.filter(card_set__code=SET_CODE).delete()
            Card.objects.filter(name="Saved by hand meanwhile").delete()
            CardSet.objects.filter(code=SET_CODE).delete()
            Faction.objects.filter(game__slug=GAME, slug="synthetic-league").delete()
            Rarity.objects.filter(game__slug=GAME, slug="platinum").delete()
            # Puts back the game record and the sample cards, should an import have landed.
            call_command("load_games", GAME, stdout=io.StringIO())
            connections.close_all()


def test_a_rarity_clash_only_the_database_sees_also_undoes_what_was_written_before_it(
    tmp_path, committed
):
    # The checks do not compare rarity orders (rarities are upserted one by one, so even a
    # valid swap of two orders fails there): the unique (game, order) constraint is the judge.
    # By the time it refuses, the import has already rewritten the game's record and created
    # a set and a faction in its transaction.
    copper = Rarity.objects.get(game__slug=GAME, slug="copper")
    path = write_catalogue(
        tmp_path / "clash.json",
        [*synthetic(1_000), changed(sample_card())],
        game={"slug": GAME, "players": "2-6", "description": "Rewritten by the import."},
        sets=[synthetic_set()],
        factions=[{"name": "Synthetic League", "colour": "#123456"}],
        rarities=[{"name": "Platinum", "order": copper.order}],
    )
    before, marine_before = catalogue_fingerprint(), remembered(sample_card())

    _, problems = refused_import(path)

    assert len(problems) == 1 and "order" in problems[0], problems
    assert catalogue_fingerprint() == before
    assert remembered(sample_card()) == marine_before


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite locks the whole file for the import's transaction: no other writer can commit "
    "between what the import reads and what it writes",
)
def test_a_card_committed_elsewhere_mid_import_makes_the_database_undo_every_row_written(
    tmp_path, committed
):
    # Someone saves a card in another game, with the short id the import will derive for card
    # 50,000, and commits only once the import has written the cards before it and is waiting
    # on that id. The import read the taken ids before the card existed for it, so only the
    # unique index can catch the clash.
    cards = synthetic()
    path = write_catalogue(
        tmp_path / "synthetic.json", [*cards, changed(sample_card())], sets=[synthetic_set()]
    )
    clashing_id = short_id_for(GAME, SET_CODE, str(BAD))
    other = Card.objects.filter(card_set__code="CFC-SMP").select_related("game").first()
    before, marine_before = catalogue_fingerprint(), remembered(sample_card())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        importer = cursor.fetchone()[0]
        cursor.execute("SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'catalogue_card'")
        inserted_before = cursor.fetchone()[0]

    holding, release, seen = threading.Event(), threading.Event(), {}

    def someone_saves_a_card():
        try:
            with transaction.atomic():
                Card.objects.create(
                    game=other.game,
                    card_set=other.card_set,
                    card_type=CardType.objects.get(game=other.game, slug="battle"),
                    number="9999",
                    name="Saved by hand meanwhile",
                    short_id=clashing_id,
                )
                holding.set()
                release.wait(timeout=600)
        finally:
            connections.close_all()

    def commit_once_the_import_waits_for_it():
        try:
            with connections["default"].cursor() as cursor:
                deadline = time.monotonic() + 600
                while time.monotonic() < deadline:
                    cursor.execute(
                        "SELECT wait_event, query FROM pg_stat_activity WHERE pid = %s",
                        [importer],
                    )
                    wait, query = cursor.fetchone()
                    if wait == "transactionid":  # waiting for another transaction to end
                        seen["query"] = query
                        break
                    time.sleep(0.05)
        finally:
            release.set()
            connections.close_all()

    saver = threading.Thread(target=someone_saves_a_card)
    saver.start()
    assert holding.wait(timeout=60)
    watcher = threading.Thread(target=commit_once_the_import_waits_for_it)
    watcher.start()
    try:
        _, problems = refused_import(path)
    finally:
        release.set()
        watcher.join(timeout=60)
        saver.join(timeout=60)

    assert seen["query"].startswith('INSERT INTO "catalogue_card"'), seen
    assert len(problems) == 1
    assert "the database refused the import, so nothing was written" in problems[0]
    assert "duplicate key value violates unique constraint" in problems[0]
    # The statistics collector counts every row inserted, committed or not: the import had
    # written the cards before 50,000 when the database refused it.
    with connection.cursor() as cursor:
        deadline, inserted = time.monotonic() + 30, 0
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'catalogue_card'"
            )
            inserted = cursor.fetchone()[0] - inserted_before
            if inserted >= BAD:
                break
            time.sleep(0.2)
    assert inserted >= BAD  # the card saved meanwhile, and at least 49,999 of the import's
    assert list(Card.objects.filter(short_id=clashing_id).values_list("name", flat=True)) == [
        "Saved by hand meanwhile"
    ]
    Card.objects.filter(short_id=clashing_id).delete()
    assert catalogue_fingerprint() == before
    assert remembered(sample_card()) == marine_before
