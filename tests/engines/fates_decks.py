"""Legal decks of Conquest of Fates and Fate Foretold built from each game's sample set
(fixtures/<game>/sample.json), as plain DeckCards: what the goldfish tests and the
benchmark play."""

import json
from pathlib import Path

from engines.rules import DeckCard

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _sample(game: str) -> list[dict]:
    return json.loads((FIXTURES / game / "sample.json").read_text())["cards"]


def _deck_card(raw: dict, zone: str) -> DeckCard:
    return DeckCard(
        key=raw["name"],
        name=raw["name"],
        card_type=raw["type"],
        zone=zone,
        quantity=1,
        factions=tuple(raw.get("factions", ())),
        keywords=tuple(raw.get("keywords", ())),
        stats=raw.get("stats", {}),
        text=raw.get("text", ""),
    )


FATES_FACTION = "Verdant Choir of Ossara"


def fates_sample_deck() -> list[DeckCard]:
    """The sample faction's units but its second Apex (25, one of them Apex) and its first
    Celestial: legal in Standard (at most one Celestial, one Apex unit)."""
    raws = [c for c in _sample("conquest-of-fates") if c["factions"] == [FATES_FACTION]]
    apex = [c["name"] for c in raws if "Apex" in c["keywords"]]
    units = [
        _deck_card(c, "main") for c in raws if c["type"] == "Unit" and c["name"] not in apex[1:]
    ]
    celestial = next(_deck_card(c, "main") for c in raws if c["type"] == "Celestial")
    return [*units, celestial]


def fate_sample_deck() -> list[DeckCard]:
    """The sample set's 64 Nest cards (16 of each suit) and its six Sigils outside the Nest:
    legal in both formats."""
    raws = _sample("fate-foretold")
    nest = [_deck_card(c, "nest") for c in raws if c["type"] == "Nest Card"]
    sigils = [_deck_card(c, "sigils") for c in raws if c["type"] == "Sigil"]
    return [*nest, *sigils]


# --- agreement between two simulations of the same games ----------------------------------

SIGMAS = 4.5


def means_agree(a: dict, b: dict, runs_a: int, runs_b: int) -> bool:
    """Two `describe` answers' means within SIGMAS standard errors of their difference."""
    error = (a["sd"] ** 2 / max(runs_a, 1) + b["sd"] ** 2 / max(runs_b, 1)) ** 0.5
    return abs(a["mean"] - b["mean"]) <= SIGMAS * error + 1e-9


def shares_agree(a: float, b: float, runs_a: int, runs_b: int) -> bool:
    pooled = (a * runs_a + b * runs_b) / (runs_a + runs_b)
    error = (pooled * (1 - pooled) * (1 / runs_a + 1 / runs_b)) ** 0.5
    return abs(a - b) <= SIGMAS * error + 1e-9


def histograms_agree(a: dict[str, int], b: dict[str, int]) -> bool:
    """A two-sample chi-square test of one distribution behind both histograms: values too
    rare to test (under 5 expected) are pooled, and the statistic must stay under its
    degrees of freedom plus SIGMAS of its standard deviations (sqrt(2 df))."""
    n_a, n_b = sum(a.values()), sum(b.values())
    rows: list[tuple[int, int]] = []
    rare = [0, 0]
    for value in sorted({*a, *b}, key=float):
        x, y = a.get(value, 0), b.get(value, 0)
        expected = (x + y) * min(n_a, n_b) / (n_a + n_b)
        if expected < 5:
            rare[0] += x
            rare[1] += y
        else:
            rows.append((x, y))
    if sum(rare):
        rows.append((rare[0], rare[1]))
    if len(rows) < 2:
        return True
    statistic = 0.0
    for x, y in rows:
        total = x + y
        for seen, n in ((x, n_a), (y, n_b)):
            expected = total * n / (n_a + n_b)
            statistic += (seen - expected) ** 2 / expected
    df = len(rows) - 1
    return statistic <= df + SIGMAS * (2 * df) ** 0.5


def at_path(summary: dict, path: str) -> list:
    """The values a SummaryFigure's dotted path names, `*` running over a list or mapping."""
    found = [summary]
    for key in path.split("."):
        step = []
        for value in found:
            if key == "*":
                step.extend(value if isinstance(value, list) else value.values())
            else:
                step.append(value[int(key)] if isinstance(value, list) else value[key])
        found = step
    return found
