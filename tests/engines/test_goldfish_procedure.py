"""Declared goldfish procedures (fixtures/<slug>/goldfish.toml): the reference and the batched
interpreter agree with each other and with the hand-written procedure they replace, on each
game's legal sample deck, within sampling error; and a file that says something the
interpreters cannot run is refused, naming where."""

import tomllib

import pytest

from engines.handwritten import HANDWRITTEN
from engines.procedure import FIXTURES, ProcedureError, goldfish_parts, load_goldfish
from tests.engines.sample_decks import legal_deck
from tests.engines.test_goldfish_vectorised import (
    POLICIES,
    REFERENCE_RUNS,
    VECTOR_RUNS,
    assert_means_and_shares_agree,
    chi_square_agrees,
    histograms,
)

DECLARED = sorted(slug for slug in HANDWRITTEN if (FIXTURES / slug / "goldfish.toml").exists())
CASES = [(slug, policy) for slug in DECLARED for policy in POLICIES[slug]]


def assert_agree(one: dict, other: dict, runs_one: int, runs_other: int) -> None:
    assert set(one["charts"]) == set(other["charts"])
    assert set(one["summary"]) == set(other["summary"])
    assert_means_and_shares_agree(one["summary"], other["summary"], runs_one, runs_other)
    other_histograms = dict(histograms(other["charts"]))
    for key, counts in histograms(one["charts"]):
        assert chi_square_agrees(counts, other_histograms[key]), (key, counts)


@pytest.mark.parametrize(("slug", "policy"), CASES)
def test_the_batched_interpreter_agrees_with_the_hand_written_kernel(slug, policy):
    deck = legal_deck(slug)
    kernel = HANDWRITTEN[slug].goldfish(deck, runs=VECTOR_RUNS, seed=4, policy=policy)
    declared = load_goldfish(slug).goldfish(deck, runs=VECTOR_RUNS, seed=5, policy=policy)
    assert_agree(kernel, declared, VECTOR_RUNS, VECTOR_RUNS)


@pytest.mark.parametrize(("slug", "policy"), CASES)
def test_the_reference_interpreter_agrees_with_the_hand_written_kernel(slug, policy):
    deck = legal_deck(slug)
    kernel = HANDWRITTEN[slug].goldfish(deck, runs=VECTOR_RUNS, seed=4, policy=policy)
    declared = load_goldfish(slug).goldfish_reference(
        deck, runs=REFERENCE_RUNS, seed=6, policy=policy
    )
    assert_agree(declared, kernel, REFERENCE_RUNS, VECTOR_RUNS)


@pytest.mark.parametrize("slug", DECLARED)
def test_a_declared_procedure_keeps_the_hand_written_policy_knobs(slug):
    assert load_goldfish(slug).goldfish_policy == HANDWRITTEN[slug].GOLDFISH_POLICY


@pytest.mark.parametrize("slug", DECLARED)
def test_the_batched_interpreter_gives_the_same_answer_for_the_same_seed(slug):
    run = load_goldfish(slug).goldfish
    deck = legal_deck(slug)
    first = run(deck, runs=2_000, seed=9, policy={})
    assert run(deck, runs=2_000, seed=9, policy={}) == first
    assert run(deck, runs=2_000, seed=10, policy={}) != first


def capital() -> dict:
    path = FIXTURES / "conquest-for-the-capital" / "goldfish.toml"
    return tomllib.loads(path.read_text())


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [
        (lambda d: d["turn"][0].update(do="juggle"), "turn[0].do", "unknown verb"),
        (lambda d: d["turn"][0].update(pile="graveyard"), "turn[0].pile", "no pile"),
        (lambda d: d["turn"][1].update(times="battles"), "turn[1].times", "policy knob"),
        (lambda d: d["turn"][2]["then"][0].update(when="flies"), "then[0].when", "card test"),
        (lambda d: d["turn"][2].update(best="attack * 2"), "turn[2].best[0]", "cannot read"),
        (lambda d: d["cards"].update(big={"power": 3}), "cards.big", "unknown card fact"),
        (lambda d: d["measures"][0].update(kind="median"), "measures[0].kind", "one of"),
        (lambda d: d["policy"][0].pop("maximum"), "policy[0]", "a minimum and a maximum"),
    ],
)
def test_a_procedure_that_names_what_it_does_not_declare_is_refused_with_its_path(
    change, where, reason
):
    definition = capital()
    change(definition)
    with pytest.raises(ProcedureError) as refused:
        goldfish_parts(definition)
    assert where in refused.value.path and reason in refused.value.reason


def test_a_file_s_error_names_the_file(tmp_path):
    (tmp_path / "new-game").mkdir()
    (tmp_path / "new-game" / "goldfish.toml").write_text('turns = 3\n[[turn]]\ndo = "fly"\n')
    with pytest.raises(ProcedureError, match=r"goldfish.toml: turn\[0\].do"):
        load_goldfish("new-game", root=tmp_path)
