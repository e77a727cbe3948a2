"""The example game of the game authors' guide (tests/games/example-game/): three data files
and no Python, loaded into a running site by `load_games` and served end to end."""

import json
import math
import shutil
from pathlib import Path

import pytest

from cardsite.catalogue.search.examples import BY_GAME
from cardsite.catalogue.selectors import card_search
from engines import ENGINES, game_engine
from engines.gamefile import load_engine_file, read_game_folder
from engines.rules import Deck, DeckCard
from tests.catalogue.live_games_support import as_another_process, load, tour
from tests.engines.test_goldfish_vectorised import Z, chi_square_agrees, histograms

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
    tour(client, "example-game", format_slug="guild-deck", query="glow>=3", goldfish=True)


def test_the_example_games_syntax_examples_find_cards_without_warnings(client, games_folder):
    shutil.copytree(EXAMPLE, games_folder / "example-game")
    load("example-game")
    assert client.get("/syntax/").content.decode().count("wick:long") == 1
    for example in BY_GAME["example-game"]:
        result = card_search(text=example.query, game="example-game")
        assert result.warnings == [] and result.cards.exists(), example.query


def example_deck() -> list[DeckCard]:
    """A legal guild deck of the example's sample cards: twelve Dawnwardens, two of the first
    four and one of the next four."""
    cards = json.loads((EXAMPLE / "sample.json").read_text(encoding="utf-8"))["cards"]
    guild = [c for c in cards if c["factions"] == ["Dawnwardens"]]
    return [
        DeckCard(
            key=c["number"],
            name=c["name"],
            card_type=c["type"],
            zone="deck",
            quantity=2 if n < 4 else 1,
            factions=tuple(c["factions"]),
            keywords=tuple(c["keywords"]),
            stats=c["stats"],
            text=c["text"],
        )
        for n, c in enumerate(guild)
    ]


def test_the_example_games_simulation_agrees_with_the_reference_interpreter_and_its_odds():
    # What the guide says of a goldfish.toml: two interpreters, one answer, and exact odds
    # beside the simulated shares they predict.
    engine = game_engine(read_game_folder(EXAMPLE), file=str(EXAMPLE / "engine.toml"))
    deck = example_deck()
    assert sum(c.quantity for c in deck) == 12
    assert engine.format("guild-deck").validate(Deck(tuple(deck), "Dawnwardens")) == []
    runs, reference_runs = 100_000, 10_000
    batched = engine.goldfish(deck, runs=runs, seed=3, policy={})
    reference = engine.goldfish_reference(deck, runs=reference_runs, seed=3, policy={})
    both = math.sqrt(1 / runs + 1 / reference_runs)

    def agree(a: float, b: float, sd: float) -> None:
        assert abs(a - b) <= Z * max(sd, 0.01) * both + 1e-9, (a, b)

    summary, expected = batched["summary"], reference["summary"]
    agree(summary["light"]["mean"], expected["light"]["mean"], expected["light"]["sd"])
    for turn, described in enumerate(expected["light_per_turn"]):
        agree(summary["light_per_turn"][turn]["mean"], described["mean"], described["sd"])
    shares = [("redraws", summary["redraws"], expected["redraws"])] + [
        (f"lantern_by_turn.{i}", a, b)
        for i, (a, b) in enumerate(
            zip(summary["lantern_by_turn"], expected["lantern_by_turn"], strict=True)
        )
    ]
    for _, a, b in shares:
        agree(a, b, math.sqrt(max(b * (1 - b), 1 / reference_runs)))
    for key, chart in histograms(batched["charts"]):
        assert chi_square_agrees(chart, dict(histograms(reference["charts"]))[key]), key

    found = {odds.summary_key: odds.exact for odds in engine.odds(deck, {})}
    assert set(found) == {"redraws"} | {f"lantern_by_turn.{i}" for i in range(6)}
    simulated = {key: a for key, a, _ in shares}
    for key, exact in found.items():
        error = math.sqrt(exact * (1 - exact) / runs)
        assert abs(simulated[key] - exact) <= 4.5 * error + 1e-9, (key, simulated[key], exact)
