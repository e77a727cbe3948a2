"""`load_games` takes a new game folder into a running site: its file is checked first (a broken
one changes nothing), the definition is stored, and every process serves the game from the
database without a restart or a module reload."""

import io

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command

from cardsite.catalogue import live_games
from cardsite.catalogue.game_definitions import GameDefinition
from cardsite.catalogue.models import Card, Game
from engines import ENGINES
from tests.catalogue.live_games_support import (
    FIXTURES,
    as_another_process,
    copy_game,
    load,
    tour,
)

pytestmark = pytest.mark.django_db


def test_a_copy_of_a_game_under_a_new_slug_is_served_end_to_end_without_a_restart(
    client, games_folder
):
    copy_game(FIXTURES / "conquest-of-fates", games_folder, "copied-fates")
    load("copied-fates")
    as_another_process()
    assert "copied-fates" not in ENGINES
    tour(client, "copied-fates", format_slug="standard", query="cq>=1", goldfish=True)
    assert ENGINES["copied-fates"].formats == ENGINES["conquest-of-fates"].formats


def test_the_game_row_keeps_the_checked_definition_and_its_hash(games_folder):
    copy_game(FIXTURES / "fate-foretold", games_folder, "copied-fate")
    load("copied-fate")
    game = Game.objects.get(slug="copied-fate")
    stored = GameDefinition.objects.get(game=game).definition
    assert stored["slug"] == "copied-fate" and len(game.definition_hash) == 64
    assert game.engine.slug == "copied-fate" and game.engine is ENGINES["copied-fate"]


def refused(*games: str) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError, match="was refused; nothing was written"):
        call_command("load_games", *games, stdout=io.StringIO(), stderr=err)
    return err.getvalue()


def test_a_broken_game_file_is_refused_naming_file_path_and_reason_and_nothing_changes(
    games_folder,
):
    copy_game(FIXTURES / "conquest-of-fates", games_folder, "good-copy")
    broken = copy_game(FIXTURES / "conquest-of-orion", games_folder, "broken-copy")
    text = (broken / "engine.toml").read_text(encoding="utf-8")
    (broken / "engine.toml").write_text(
        text.replace('stats = ["tier"]', 'stats = ["speed"]'), encoding="utf-8"
    )
    before = (Game.objects.count(), Card.objects.count())
    message = refused()
    assert "broken-copy/engine.toml: charts[1].stats[0]: unknown stat 'speed'" in message
    assert (Game.objects.count(), Card.objects.count()) == before
    assert "good-copy" not in ENGINES and "broken-copy" not in ENGINES


def test_a_game_file_whose_slug_is_not_its_folder_is_refused(games_folder):
    copy_game(FIXTURES / "fate-foretold", games_folder, "renamed")
    text = (games_folder / "renamed" / "engine.toml").read_text(encoding="utf-8")
    (games_folder / "renamed" / "engine.toml").write_text(
        text.replace('slug = "renamed"', 'slug = "other"'), encoding="utf-8"
    )
    assert "renamed/engine.toml: slug: 'other' is not the name" in refused("renamed")


def test_bad_toml_is_refused_with_its_line(games_folder):
    folder = copy_game(FIXTURES / "fate-foretold", games_folder, "bad-toml")
    (folder / "engine.toml").write_text('slug = "bad-toml"\nname = \n', encoding="utf-8")
    assert "bad-toml/engine.toml: line 2, column 8: not valid TOML" in refused("bad-toml")


def test_a_card_file_that_fails_leaves_the_new_game_unstored(games_folder):
    folder = copy_game(FIXTURES / "fate-foretold", games_folder, "bad-cards")
    (folder / "sample.json").write_text('{"cards": [{"name": 3}]}', encoding="utf-8")
    with pytest.raises(CommandError, match="did not load; nothing was written"):
        call_command("load_games", "bad-cards", stdout=io.StringIO(), stderr=io.StringIO())
    assert not Game.objects.filter(slug="bad-cards").exists()
    assert "bad-cards" not in ENGINES


def test_a_process_the_announcement_does_not_reach_finds_a_new_game_in_the_database(
    client, games_folder, settings
):
    copy_game(FIXTURES / "fate-foretold", games_folder, "polled-fate")
    load("polled-fate")
    as_another_process()
    # A per-process cache: the announcement stayed in the process that loaded the game.
    cache.clear()
    settings.GAMES_RECHECK_SECONDS = 0
    assert client.get("/games/polled-fate/").status_code == 200
    assert "polled-fate" in ENGINES


def test_with_no_announcement_and_no_timed_check_a_request_reads_no_games(
    client, games_folder, django_assert_num_queries
):
    copy_game(FIXTURES / "fate-foretold", games_folder, "quiet-fate")
    load("quiet-fate")
    as_another_process()
    cache.clear()
    with django_assert_num_queries(0):
        live_games.catch_up()
    assert "quiet-fate" not in ENGINES


def test_a_game_asked_for_before_the_timed_check_is_served_at_once_not_a_500(
    client, games_folder, settings
):
    # `make run`: no Redis, so the announcement stays in load_games' process, and the timed
    # check is seconds away; the game's page is asked for in between.
    copy_game(FIXTURES / "fate-foretold", games_folder, "early-fate")
    load("early-fate")
    as_another_process()
    cache.clear()
    settings.GAMES_RECHECK_SECONDS = None
    assert client.get("/games/early-fate/").status_code == 200
    assert "early-fate" in ENGINES


def test_a_slug_no_game_has_is_still_a_404(client):
    assert client.get("/games/no-such-game/").status_code == 404
