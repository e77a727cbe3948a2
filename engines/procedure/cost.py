"""A declared procedure's goldfish_cost, measured rather than written by hand: a short timed
run of the procedure on its `[[cost_deck]]` beside the same of a unit procedure
(engines/procedure/unit.toml), interleaved in one run so that the machine's speed and load
cancel out, and cached by the definition's hash, so that each definition is timed once a
process."""

from __future__ import annotations

import hashlib
import json
import math
import time
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from engines.procedure.batched import run_batched
from engines.procedure.definition import read_procedure
from engines.procedure.vocabulary import Procedure

# The unit procedure's cost, batched, in the site's units of work (GameEngine.goldfish_cost: one
# default game of this procedure's per-game reference loop): 0.08 when the limits were set
# (2026-11-24).
UNIT_COST = 0.08
# Enough games that a run takes some tens of milliseconds; five runs each, interleaved, and the
# fastest of each kept (a busy machine only ever slows a run down).
RUNS, REPEATS = 5_000, 5
# What a procedure without a deck to time costs: GameEngine's own default.
UNMEASURED = 1.0

_COSTS: dict[str, float] = {}


def digest(definition: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(definition, sort_keys=True, default=str).encode()).hexdigest()


@cache
def _unit() -> Procedure:
    text = (Path(__file__).with_name("unit.toml")).read_text(encoding="utf-8")
    return read_procedure(tomllib.loads(text))


def _seconds(procedure: Procedure, seed: int) -> float:
    start = time.perf_counter()
    run_batched(procedure, procedure.cost_deck, runs=RUNS, seed=seed, policy={})
    return time.perf_counter() - start


def measure_cost(procedure: Procedure, key: str) -> float:
    """The procedure's cost in the site's unit of work, rounded up to a hundredth; measured
    once per definition (`key`, its digest) in a process."""
    if key in _COSTS:
        return _COSTS[key]
    if not procedure.cost_deck:
        return UNMEASURED
    unit = _unit()
    _seconds(unit, 0)  # warm: the first run pays for NumPy's first calls
    own, units = [], []
    for seed in range(REPEATS):
        own.append(_seconds(procedure, seed))
        units.append(_seconds(unit, seed))
    ratio = min(own) / min(units)
    _COSTS[key] = max(0.01, math.ceil(UNIT_COST * ratio * 100) / 100)
    return _COSTS[key]
