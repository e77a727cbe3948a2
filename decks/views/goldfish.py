"""A deck's goldfish page: a sample hand played by the game's own rules, and simulations."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from cardsite.api.errors import as_form_error
from cardsite.limits import client_key, throttle_page
from decks.jobs import goldfish_job
from decks.models import Job
from decks.reading.selectors import job_for_reader
from decks.services import (
    ResolvedDeck,
    SampleHand,
    format_policy,
    goldfish_charts,
    goldfish_run,
    hand_odds,
    intake_deck,
    policy_from_form,
    resolve,
    sample_hand,
    summary_table,
)
from decks.views.common import ascii_number, readable_or_404
from engines.errors import InputError
from engines.goldfish import MAX_RUNS
from engines.hands import Mulligan, StepKind

SEED_DIGITS = 9


def _seed(raw: str | None) -> int | None:
    return ascii_number(raw, SEED_DIGITS)


def _simulates(request: HttpRequest) -> bool:
    # Only a simulation spends the goldfish budget: dealing and playing a sample hand is a
    # few list operations (at most engines.hands.MAX_STEPS of them), and a player takes many.
    return "runs" in request.GET


@throttle_page("goldfish", counts=_simulates)
def deck_goldfish(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = readable_or_404(request, deck_id)
    seed = _seed(request.GET.get("seed"))
    steps = request.GET.get("steps", "")[:2000]
    settled = "job" in request.GET or "runs" in request.GET
    if (seed is None and not settled) or "step" in request.GET:
        # A new shuffle, or a step with cards picked in the form: to the canonical URL, which
        # holds the whole hand (seed and steps) and so can be shared.
        params = request.GET.copy()
        params["seed"] = str(seed if seed is not None else random.randrange(10**SEED_DIGITS))
        if (step := params.pop("step", [""])[-1]) in ("mulligan", "discard"):
            picks = ".".join(p for p in params.pop("pick", []) if p.isascii() and p.isdigit())
            params["steps"] = ",".join(filter(None, [steps, f"{step}:{picks}" if picks else step]))
        return redirect(f"{request.path}?{params.urlencode()}")
    seed = seed if seed is not None else random.randrange(10**SEED_DIGITS)
    resolved = resolve(game=deck.game.slug, intake=intake_deck(deck))
    engine = resolved.snapshot.engine
    context: dict[str, Any] = {
        "deck": deck,
        "engine": engine,
        "seed": seed,
        # As far as the API: a long simulation becomes a job, on the worker or, without one,
        # in a job thread (decks.jobs), and the page follows its progress.
        "max_runs": MAX_RUNS,
    }
    try:
        hand = sample_hand(resolved=resolved, seed=seed, steps=steps)
    except InputError as exc:
        context["hand_error"] = as_form_error(exc)
    else:
        if hand is not None:
            due = hand.state.must_discard(hand.rules)
            context.update(hand=hand, hand_actions=_hand_actions(hand), due=due)
    if "job" in request.GET:
        context.update(_finished_job(request, deck_id, resolved))
    elif "runs" in request.GET:
        try:
            response = _simulate(request, context, resolved, seed)
        except InputError as exc:
            context["error"] = as_form_error(exc)
        else:
            if response is not None:
                return response
    used = context.get("policy_used")
    if used is None:
        used = format_policy(resolved=resolved, format_slug=deck.format, policy={})
    context["policy"] = _knobs(engine, used, resolved.deck_cards)
    if engine.goldfish_description is not None:
        context["described"] = engine.goldfish_description(used)
    # A simulation refused (runs past the limit, a knob out of its range) is the client's
    # error, answered as the API answers it, with the form to correct it.
    return render(
        request, "decks/goldfish.html", context, status=400 if "error" in context else 200
    )


def _hand_actions(hand: SampleHand) -> list[dict[str, str]]:
    """What the player may do next, as links (no cards to pick) or form buttons (cards to
    tick), from the steps the game's rules allow now."""
    rules, state = hand.rules, hand.state
    due = state.must_discard(rules)
    labels = {
        StepKind.DRAW: "Draw a card",
        StepKind.NEXT: f"Next {rules.turn_name} (draw "
        + (f"up to {rules.per_turn})" if rules.refill else f"{rules.per_turn})"),
        StepKind.MULLIGAN: f"Mulligan (shuffle back, draw {rules.opening})"
        if rules.mulligan is Mulligan.REDRAW
        else "Exchange the ticked cards (to the bottom, draw as many)",
        StepKind.DISCARD: f"Discard the {due} ticked cards" if due else "Discard the ticked cards",
    }
    actions = []
    for kind in hand.legal:
        picks = kind is StepKind.DISCARD or (
            kind is StepKind.MULLIGAN and rules.mulligan is Mulligan.EXCHANGE
        )
        link = "" if picks else "?" + urlencode({"seed": hand.seed, "steps": hand.then(kind)})
        actions.append({"step": str(kind), "label": labels[kind], "link": link})
    return actions


def _simulate(
    request: HttpRequest, context: dict[str, Any], resolved: ResolvedDeck, seed: int
) -> HttpResponse | None:
    raw = request.GET.get("runs", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 7:
        raise InputError("runs", f"Games must be a whole number up to {context['max_runs']:,}.")
    runs = int(raw)
    policy = format_policy(
        resolved=resolved,
        format_slug=context["deck"].format,
        policy=policy_from_form(resolved.snapshot.engine, request.GET),
    )
    job = goldfish_job(
        resolved=resolved,
        runs=runs,
        seed=seed,
        policy=policy,
        owner=request.user,
        client=client_key(request),
        deck_key=context["deck"].share_key,
        threaded=True,
    )
    if job is not None:
        return redirect(job)
    result = goldfish_run(
        resolved=resolved, runs=runs, seed=seed, policy=policy, max_runs=context["max_runs"]
    )
    context.update(_shown(result, resolved, policy))
    return None


def _finished_job(request: HttpRequest, deck_id: str, resolved: ResolvedDeck) -> dict[str, Any]:
    job = job_for_reader(key=request.GET["job"][:64], user=request.user)
    if job is None or job.status != Job.Status.DONE or job.params.get("deck") != deck_id:
        raise Http404("No finished simulation of this deck with that id.")
    with job.result.open("rb") as stored:
        result = json.load(stored)
    return _shown(result, resolved, job.params["policy"])


def _shown(
    result: dict[str, Any], resolved: ResolvedDeck, policy: dict[str, Any]
) -> dict[str, Any]:
    engine = resolved.snapshot.engine
    odds = hand_odds(resolved=resolved, policy=policy, summary=result["summary"])
    return {
        "result": result,
        "runs": result["runs"],
        "charts": goldfish_charts(engine=engine, charts=result["charts"]),
        "summary": summary_table(
            figures=engine.goldfish_summary, summary=result["summary"], odds=odds
        ),
        "policy_used": policy,
    }


def _knobs(engine: Any, used: dict[str, Any] | None, cards: Any) -> list[Any]:
    """Each policy knob with the value to show (the one just simulated, else its default) and,
    for a knob that picks one of the deck's cards, the deck's choices."""
    return [
        (p, (used or {}).get(p.key, p.default), p.choices(cards) if p.choices else None)
        for p in engine.goldfish_policy
    ]
