"""The example game of the game authors' guide (tests/games/example-game/): three data files
and no Python, loaded into a running site by `load_games` and served end to end."""

import shutil
from pathlib import Path

import pytest

from cardsite.catalogue.search.examples import BY_GAME
from cardsite.catalogue.selectors import card_search
from engines import ENGINES
from engines.gamefile import load_engine_file
from tests.catalogue.live_games_support import as_another_process, load, tour

pytestmark = pytest.mark.django_db
EXAMPLE = Path(__file__).resolve().parents[1] / "games" / "example-game"


def test_the_example_game_is_not_in_the_catalogue():
    assert "example-game" not in ENGINES
    assert not (Path(__file__).resolve().parents[2] / "fixtures" / "example-game").exists()


def test_the_example_game_file_is_valid():
    assert load_engine_file(EXAMPLE / "engine.toml").slug == "example-game"


def test_the_example_game_loads_and_is_served_end_to_end_without_a_restart(client, games_folder):
    shutil.copytree(EXAMPLE, games_folder / "example-game")
    load("example-game")
    as_another_process()
    tour(client, "example-game", format_slug="guild-deck", query="glow>=3", goldfish=False)


def test_the_example_games_syntax_examples_find_cards_without_warnings(client, games_folder):
    shutil.copytree(EXAMPLE, games_folder / "example-game")
    load("example-game")
    assert client.get("/syntax/").content.decode().count("wick:long") == 1
    for example in BY_GAME["example-game"]:
        result = card_search(text=example.query, game="example-game")
        assert result.warnings == [] and result.cards.exists(), example.query
