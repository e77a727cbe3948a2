"""A resolved deck checked against a format by its engine: pure, no database.

Problems stay the engine's typed `Problem`s (with their line and suggestions) until a
serializer or a template shows them; they are sorted once, here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from decks.services.resolve import ResolvedDeck, capped_problems
from engines.base import GameEngine
from engines.errors import InputError
from engines.rules import Deck, Format, Problem, Severity


@dataclass(frozen=True)
class CheckResult:
    format: Format
    legal: bool
    problems: tuple[Problem, ...]
    counts: dict[str, Any]
    faction: str | None


def format_for(engine: GameEngine, slug: str) -> Format:
    fmt = engine.format(slug)
    if fmt is None:
        known = ", ".join(f.slug for f in engine.formats)
        raise InputError("format", f"{engine.name} has no format {slug!r}; formats: {known}.")
    return fmt


def check(resolved: ResolvedDeck, format_slug: str) -> CheckResult:
    """Everything wrong with the deck in this format: the cards that could not be resolved,
    then the format's rules (the first of them, then how many more; `legal` counts all)."""
    snap = resolved.snapshot
    fmt = format_for(snap.engine, format_slug)
    # A format that plays without factions neither needs one nor is judged by an inferred one.
    faction = resolved.faction if (fmt.needs_faction or resolved.faction_given) else None
    deck = Deck(resolved.deck_cards, faction.name if faction else None)
    found = fmt.validate(deck, snap.format_settings(fmt.slug))
    problems = sorted((*resolved.problems, *found), key=Problem.sort_key)
    return CheckResult(
        format=fmt,
        legal=not any(p.severity == Severity.ERROR for p in problems),
        problems=capped_problems(tuple(_merged(problems))),
        counts=resolved.counts,
        faction=faction.name if faction else None,
    )


def legality(resolved: ResolvedDeck) -> list[CheckResult]:
    """The deck checked in every format of its game, from the one resolve."""
    return [check(resolved, f.slug) for f in resolved.snapshot.engine.formats]


def _merged(problems: list[Problem]) -> list[Problem]:
    """Repeats of one unknown name are one problem listing every line it stands on."""
    out: list[Problem] = []
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    for p in problems:
        key = (p.code, p.cards)
        if p.code in ("unknown_card", "wrong_game") and p.line is not None and key in seen:
            first = out[seen[key]]
            lines = (*(first.lines or (first.line,)), p.line)
            listed = ", ".join(str(n) for n in lines if n is not None)
            message = first.message.replace(f"(line {first.line})", f"(lines {listed})")
            out[seen[key]] = replace(first, lines=lines, message=message)
            continue
        seen.setdefault(key, len(out))
        out.append(p)
    return out


def problem_json(p: Problem) -> dict[str, Any]:
    """A problem as the API shows it."""
    out: dict[str, Any] = {
        "code": p.code,
        "severity": str(p.severity),
        "message": p.message,
        "cards": list(p.cards),
    }
    if p.line is not None:
        out["line"] = p.line
    if p.lines:
        out["lines"] = [n for n in p.lines if n is not None]
    if p.suggestions or p.code == "unknown_card":
        out["suggestions"] = list(p.suggestions)
    if p.source:
        out["source"] = p.source
    return out
