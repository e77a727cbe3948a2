"""The vectorised goldfish of Orion, Tactics and Capital agrees with the per-game reference loop
within sampling error, on a legal deck of each game, at the defaults and at the edges of their
policies; and its shares of games agree with the exact hypergeometric odds."""

import math
from collections.abc import Iterator
from typing import Any

import pytest

from engines import get_engine
from tests.engines.sample_decks import legal_deck

# Standard errors a figure may stray: wide enough that a correct procedure fails about once in
# a million comparisons, narrow enough that a rule played differently shows.
Z = 5.0
REFERENCE_RUNS, VECTOR_RUNS = 1_500, 30_000

POLICIES = {
    "conquest-of-orion": [
        {},
        {"exchange_above_tier": 0, "first_player": False},
        {"exchange_above_tier": 10, "turns": 3, "income_gold": 6},
        {"turns": 20, "tier_cost_gold": 0},
    ],
    "conquest-alpha-tactics": [
        {},
        {"plays_per_round": 16, "rounds": 3},
        {"plays_per_round": 33, "rounds": 2},
        {"plays_per_round": 1, "rounds": 1},
    ],
    "conquest-for-the-capital": [
        {},
        {"battles_per_turn": 1},
        {"battles_per_turn": 0, "turns": 1},
        {"turns": 5, "battles_per_turn": 2},
    ],
}
CASES = [(slug, policy) for slug, policies in POLICIES.items() for policy in policies]


def leaves(tree: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(path, value, parent) for every number in an answer."""
    items = tree.items() if isinstance(tree, dict) else enumerate(tree)
    for key, value in items:
        here = f"{path}.{key}" if path else str(key)
        if isinstance(value, dict | list):
            yield from leaves(value, here)
        else:
            yield here, value, tree


def is_share(path: str) -> bool:
    words = ("by_turn", "in_opening_hand", "in_hand_by_last_turn", "has_type", "playable_by")
    return any(w in path for w in words)


def assert_means_and_shares_agree(ref: dict, vec: dict, runs_ref: int, runs_vec: int) -> None:
    checked = 0
    vec_leaves = {path: value for path, value, _ in leaves(vec)}
    for path, value, parent in leaves(ref):
        other = vec_leaves[path]
        last = path.rsplit(".", 1)[-1]
        if last in ("p10", "median", "p90", "sd", "sd_first_turn") or isinstance(value, str):
            continue
        if last == "mean_first_turn":
            # A mean over the games where the card was ever playable.
            seen = parent["playable_by_turn"][-1] if parent["playable_by_turn"] else 0
            if seen < 0.05:
                continue
            sd = max(parent["sd_first_turn"], 0.05)
            error = sd * math.sqrt(1 / (runs_ref * seen) + 1 / (runs_vec * seen))
        elif last == "mean" and isinstance(parent, dict) and "sd" in parent:
            error = max(parent["sd"], 0.01) * math.sqrt(1 / runs_ref + 1 / runs_vec)
        elif is_share(path):
            p = min(max((value + other) / 2, 1 / runs_ref), 1 - 1 / runs_ref)
            error = math.sqrt(p * (1 - p) * (1 / runs_ref + 1 / runs_vec))
        elif "opening_hand_by_type" in path:
            error = 2 * math.sqrt(1 / runs_ref + 1 / runs_vec)  # a count of 0 to 4 cards
        else:
            assert value == other, path  # the policy echoed back, the assumptions
            continue
        assert abs(value - other) <= Z * error + 1e-9, (path, value, other, error)
        checked += 1
    assert checked


def chi_square_agrees(a: dict[str, int], b: dict[str, int]) -> bool:
    """Two samples of one distribution, by Pearson's two-sample chi-square: the statistic
    within five standard deviations of its degrees of freedom (rare bins pooled)."""
    n, m = sum(a.values()), sum(b.values())
    if not n or not m:
        return n == m
    statistic, df, pooled_a, pooled_b = 0.0, -1, 0, 0
    for key in sorted(set(a) | set(b), key=float):
        pooled_a, pooled_b = pooled_a + a.get(key, 0), pooled_b + b.get(key, 0)
        if (pooled_a + pooled_b) * min(n, m) / (n + m) >= 10:
            statistic += _term(pooled_a, pooled_b, n, m)
            df, pooled_a, pooled_b = df + 1, 0, 0
    if pooled_a + pooled_b:
        statistic += _term(pooled_a, pooled_b, n, m)
        df += 1
    df = max(df, 1)
    return statistic <= df + Z * math.sqrt(2 * df)


def _term(x: int, y: int, n: int, m: int) -> float:
    total = x + y
    expected_x, expected_y = total * n / (n + m), total * m / (n + m)
    return (x - expected_x) ** 2 / expected_x + (y - expected_y) ** 2 / expected_y


def histograms(charts: dict) -> Iterator[tuple[str, dict[str, int]]]:
    for key, chart in charts.items():
        parts = chart.items() if isinstance(chart, dict) else enumerate(chart)
        if isinstance(chart, dict) and all(isinstance(v, int) for v in chart.values()):
            yield key, chart
            continue
        for part, value in parts:
            if isinstance(value, dict):
                yield f"{key}.{part}", value


@pytest.mark.parametrize(("slug", "policy"), CASES)
def test_the_vectorised_goldfish_agrees_with_the_reference_loop(slug, policy):
    engine = get_engine(slug)
    deck = legal_deck(slug)
    ref = engine.goldfish_reference(deck, runs=REFERENCE_RUNS, seed=3, policy=policy)
    vec = engine.goldfish(deck, runs=VECTOR_RUNS, seed=4, policy=policy)
    assert set(ref["charts"]) == set(vec["charts"])
    assert_means_and_shares_agree(ref["summary"], vec["summary"], REFERENCE_RUNS, VECTOR_RUNS)
    for key, means in ref["charts"].items():
        if f"{key}_sd" in ref["charts"]:  # a chart of means, with its spread
            spread = ref["charts"][f"{key}_sd"]
            for mean, other, sd in zip(means, vec["charts"][key], spread, strict=True):
                error = max(sd, 0.01) * math.sqrt(1 / REFERENCE_RUNS + 1 / VECTOR_RUNS)
                assert abs(mean - other) <= Z * error, (key, mean, other)
        elif is_share(key):
            assert_means_and_shares_agree(
                {key: means}, {key: vec["charts"][key]}, REFERENCE_RUNS, VECTOR_RUNS
            )
    vec_histograms = dict(histograms(vec["charts"]))
    for key, counts in histograms(ref["charts"]):
        assert chi_square_agrees(counts, vec_histograms[key]), (key, counts, vec_histograms[key])


@pytest.mark.parametrize("slug", sorted(POLICIES))
def test_the_same_seed_gives_the_same_answer_and_another_seed_another(slug):
    engine = get_engine(slug)
    deck = legal_deck(slug)
    first = engine.goldfish(deck, runs=3_000, seed=9, policy={})
    assert engine.goldfish(deck, runs=3_000, seed=9, policy={}) == first
    assert engine.goldfish(deck, runs=3_000, seed=10, policy={}) != first
    assert engine.goldfish(deck, runs=3_000, seed=-9, policy={}) != first


@pytest.mark.parametrize("slug", sorted(POLICIES))
def test_a_batched_run_tells_its_progress_until_every_run_is_counted(slug):
    engine = get_engine(slug)
    told: list[int] = []
    engine.goldfish(legal_deck(slug), runs=60_001, seed=1, policy={}, progress=told.append)
    assert sum(told) == 60_001 and len(told) > 1


@pytest.mark.parametrize("slug", sorted(POLICIES))
def test_every_share_with_a_closed_form_agrees_with_its_exact_value(slug):
    engine = get_engine(slug)
    deck = legal_deck(slug)
    runs = 100_000
    summary = engine.goldfish(deck, runs=runs, seed=5, policy={})["summary"]
    found = engine.odds(deck, {})
    assert found
    for odds in found:
        value: Any = summary
        head, _, rest = odds.summary_key.partition(".")
        value = value[head]
        # Card names may hold dots: the rest is a list index or the key, then a last field.
        if isinstance(value, list):
            value = value[int(rest)]
        elif rest in value:
            value = value[rest]
        else:
            name, _, field = rest.rpartition(".")
            value = value[name][field]
        error = math.sqrt(odds.exact * (1 - odds.exact) / runs)
        assert abs(value - odds.exact) <= 4.5 * error + 1e-9, (odds.label, value, odds.exact)


@pytest.mark.parametrize("slug", sorted(POLICIES))
def test_every_summary_figure_and_chart_spread_names_something_the_answer_has(slug):
    engine = get_engine(slug)
    answer = engine.goldfish(legal_deck(slug), runs=500, seed=1, policy={})
    paths = {path for path, _, _ in leaves(answer["summary"])}
    for figure in engine.goldfish_summary:
        for wanted in (figure.path, figure.spread):
            if wanted:
                head, _, tail = wanted.partition("*")
                assert any(p.startswith(head) and p.endswith(tail) for p in paths), wanted
    for chart in engine.goldfish_charts:
        assert chart.key in answer["charts"]
        if chart.spread:
            assert len(answer["charts"][chart.spread]) == len(answer["charts"][chart.key])
    exact = {f.exact for f in engine.goldfish_summary if f.exact}
    for odds in engine.odds(legal_deck(slug), {}):
        assert any(odds.summary_key.startswith(e.partition("*")[0]) for e in exact)
