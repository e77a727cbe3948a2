"""Goldfish procedures declared as data (fixtures/<slug>/goldfish.toml) and the two
interpreters that run them: `reference` (one game at a time, plain Python) and `batched`
(many games at once, NumPy). `goldfish_parts` gives an engine what it needs from a file."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from engines.base import HandOdds, ResultChart, SummaryFigure
from engines.goldfish import PolicyParam
from engines.procedure.cards import ProcedureError
from engines.procedure.cost import digest, measure_cost
from engines.procedure.definition import read_procedure
from engines.procedure.odds import exact_odds
from engines.procedure.reference import run_reference
from engines.procedure.vocabulary import Procedure
from engines.rules import DeckCard

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

__all__ = ["GoldfishParts", "ProcedureError", "goldfish_parts", "load_goldfish"]


class Goldfish(Protocol):
    def __call__(
        self,
        cards: Sequence[DeckCard],
        *,
        runs: int,
        seed: int,
        policy: Mapping[str, object],
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, object]: ...


class Odds(Protocol):
    def __call__(
        self, cards: Sequence[DeckCard], policy: Mapping[str, object]
    ) -> list[HandOdds]: ...


@dataclass(frozen=True)
class GoldfishParts:
    """What a GameEngine takes from a declared procedure."""

    procedure: Procedure
    goldfish: Goldfish
    goldfish_reference: Goldfish
    goldfish_policy: tuple[PolicyParam, ...]
    odds: Odds
    goldfish_charts: tuple[ResultChart, ...]
    goldfish_summary: tuple[SummaryFigure, ...]
    # The definition's hash: what its measured cost is cached by.
    digest: str

    def engine_names(
        self,
    ) -> tuple[
        tuple[PolicyParam, ...],
        Goldfish,
        Goldfish,
        Odds,
        tuple[ResultChart, ...],
        tuple[SummaryFigure, ...],
    ]:
        """What a game's `_goldfish` shim hands its engine: the policy, the batched and the
        reference procedure, the odds, the charts and the summary's figures."""
        return (
            self.goldfish_policy,
            self.goldfish,
            self.goldfish_reference,
            self.odds,
            self.goldfish_charts,
            self.goldfish_summary,
        )

    @property
    def goldfish_cost(self) -> float:
        """Measured on first use (a short timed run beside the unit procedure, about a tenth
        of a second), then cached for the process: not paid by a process that never asks."""
        return measure_cost(self.procedure, self.digest)


def goldfish_parts(definition: Mapping[str, Any]) -> GoldfishParts:
    """The parts of a procedure given as its file's data; ProcedureError names what is wrong."""
    from engines.procedure.batched import run_batched

    procedure = read_procedure(definition)
    return GoldfishParts(
        procedure=procedure,
        goldfish=partial(run_batched, procedure),
        goldfish_reference=partial(run_reference, procedure),
        goldfish_policy=procedure.policy,
        odds=partial(exact_odds, procedure),
        goldfish_charts=tuple(ResultChart(**f.fields) for f in procedure.charts),
        goldfish_summary=tuple(SummaryFigure(**f.fields) for f in procedure.summary),
        digest=digest(definition),
    )


def load_goldfish(slug: str, root: Path = FIXTURES) -> GoldfishParts:
    """The parts of fixtures/<slug>/goldfish.toml; an error names the file."""
    path = root / slug / "goldfish.toml"
    try:
        return goldfish_parts(tomllib.loads(path.read_text(encoding="utf-8")))
    except ProcedureError as error:
        raise ProcedureError(f"{path.name}: {error.path}", error.reason) from error
