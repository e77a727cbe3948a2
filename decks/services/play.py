"""What the engine answers about a deck in play: a sample hand, exact odds, and goldfish
simulations. The web pages, the API and background jobs all ask here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from decks.services.resolve import ResolvedDeck
from engines.base import GameEngine, HandOdds
from engines.errors import InputError
from engines.goldfish import MAX_RUNS, at_path, max_runs_for, resolve_policy, work_of
from engines.hands import HandRules, HandState, StepKind, deal, parse_steps


@dataclass(frozen=True)
class SampleHand:
    rules: HandRules
    state: HandState
    seed: int
    steps: str

    @property
    def legal(self) -> tuple[StepKind, ...]:
        return self.state.legal(self.rules)

    def then(self, step: str) -> str:
        """The steps so far followed by one more, for a link."""
        return f"{self.steps},{step}" if self.steps else step


def sample_hand(*, resolved: ResolvedDeck, seed: int, steps: str = "") -> SampleHand | None:
    """The deck's hand after `steps` (their URL form) from a shuffle by `seed`, by the game's
    own rules; None for a game without a hand. A step not allowed raises InputError."""
    rules = resolved.snapshot.engine.hand
    if rules is None:
        return None
    state = deal(rules, resolved.deck_cards, seed=seed, steps=parse_steps(steps))
    return SampleHand(rules, state, seed, steps)


def hand_odds(
    *, resolved: ResolvedDeck, policy: Mapping[str, Any], summary: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The engine's exact chances for this deck, each beside the simulated rate when a
    simulation's summary is given."""
    compute = resolved.snapshot.engine.odds
    if compute is None:
        return []
    found: list[HandOdds] = compute(resolved.deck_cards, policy)
    return [
        {
            "label": o.label,
            "exact": o.exact,
            "key": o.summary_key,
            "simulated": at_path(summary or {}, o.summary_key) if o.summary_key else None,
        }
        for o in found
    ]


def format_policy(
    *, resolved: ResolvedDeck, format_slug: str, policy: Mapping[str, Any]
) -> dict[str, Any]:
    """The policy a simulation of a deck of this format runs: the format's own numbers for
    the knobs it names (a format setting keyed like the knob: Speed Run's alignment target),
    under what the player chose."""
    keys = {p.key for p in resolved.snapshot.engine.goldfish_policy}
    own = resolved.snapshot.format_settings(format_slug)
    return {**{k: v for k, v in own.items() if k in keys and v is not None}, **policy}


def policy_from_form(engine: GameEngine, form: Mapping[str, str]) -> dict[str, Any]:
    """Policy values from a page's form fields (`policy_<key>`), typed like each default. A
    box left empty keeps the default; an unchecked checkbox is False once the form was sent."""
    policy: dict[str, Any] = {}
    for param in engine.goldfish_policy:
        raw = form.get(f"policy_{param.key}")
        if isinstance(param.default, bool):
            policy[param.key] = raw == "on"
        elif raw not in (None, ""):
            try:
                policy[param.key] = type(param.default)(raw)
            except (TypeError, ValueError):
                raise InputError(f"policy.{param.key}", f"must be like {param.default!r}") from None
    return policy


def goldfish_work(*, engine: GameEngine, runs: int, policy: Mapping[str, Any]) -> float:
    """How much simulating costs, in units of work (GameEngine.goldfish_cost)."""
    resolved = resolve_policy(engine.goldfish_policy, policy)
    return work_of(engine.goldfish_policy, resolved, runs, engine.goldfish_cost)


def goldfish_check(
    *, engine: GameEngine, runs: int, policy: Mapping[str, Any], max_runs: int = MAX_RUNS
) -> Callable[..., Any]:
    """The game's goldfish procedure, once the request is one it can run; else InputError
    naming the field. Lets a background job refuse bad input before it is queued."""
    if not 1 <= runs <= max_runs:
        raise InputError("runs", f"runs must be between 1 and {max_runs:,}, got {runs:,}")
    if engine.goldfish is None:
        raise InputError("game", f"{engine.name} has no goldfish procedure")
    try:
        resolved = resolve_policy(engine.goldfish_policy, policy)
    except InputError as exc:
        field = exc.field if exc.field == "policy" else f"policy.{exc.field}"
        raise InputError(field, exc.message) from None
    most = max_runs_for(engine.goldfish_policy, resolved)
    if runs > most:
        raise InputError(
            "runs", f"at most {most:,} runs with this policy (fewer as its game grows longer)"
        )
    return engine.goldfish


def goldfish_run(
    *,
    resolved: ResolvedDeck,
    runs: int,
    seed: int,
    policy: Mapping[str, Any],
    progress: Callable[[int], None] | None = None,
    max_runs: int = MAX_RUNS,
) -> dict[str, Any]:
    """Simulate `runs` solo games of the deck by its game's procedure."""
    engine = resolved.snapshot.engine
    procedure = goldfish_check(engine=engine, runs=runs, policy=policy, max_runs=max_runs)
    try:
        result = procedure(
            list(resolved.deck_cards), runs=runs, seed=seed, policy=policy, progress=progress
        )
    except InputError as exc:
        field = exc.field if exc.field == "policy" else f"policy.{exc.field}"
        raise InputError(field, exc.message) from None
    return {"game": engine.slug, "runs": runs, "seed": seed, **result}
