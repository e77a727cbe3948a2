"""Every format of every game gives today's problems on its corpus of generated decks
(tests/engines/corpus.py; issue 27: the games' move to data files is judged by it)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest

from engines import ENGINES, get_engine
from engines.rules import Format, Problem, Severity
from tests.engines import corpus
from tests.engines.corpus import CorpusDeck

FORMATS = [
    pytest.param(slug, fmt.slug, id=f"{slug}-{fmt.slug}")
    for slug, engine in sorted(ENGINES.items())
    for fmt in engine.formats
]
# What a reader of a failure needs, not every mismatch.
SHOWN = 5


def _format(slug: str, format_slug: str) -> Format:
    found = get_engine(slug).format(format_slug)
    assert found is not None, f"{slug} has no format {format_slug}"
    return found


@cache
def _corpus(slug: str, format_slug: str) -> tuple[CorpusDeck, ...]:
    return tuple(corpus.format_corpus(slug, format_slug))


def _checked(
    slug: str, format_slug: str
) -> tuple[Format, tuple[CorpusDeck, ...], tuple[list[Problem], ...]]:
    return _format(slug, format_slug), _corpus(slug, format_slug), _answers(slug, format_slug)


@cache
def _answers(slug: str, format_slug: str) -> tuple[list[Problem], ...]:
    return tuple(corpus.answers(slug, format_slug, _corpus(slug, format_slug)))


def _golden(slug: str, format_slug: str) -> dict[str, Any]:
    formats: dict[str, Any] = corpus.golden(slug)["formats"]
    assert format_slug in formats, (
        f"{slug} {format_slug} has no golden answers in {corpus.golden_path(slug)}: a new format "
        "is recorded with `python -m tests.engines.corpus --write`"
    )
    recorded: dict[str, Any] = formats[format_slug]
    return recorded


@pytest.mark.parametrize(("slug", "format_slug"), FORMATS)
def test_every_corpus_deck_gets_the_problems_recorded_for_it(slug: str, format_slug: str) -> None:
    recorded = _golden(slug, format_slug)
    _, decks, found = _checked(slug, format_slug)
    expected = corpus.split(recorded["problems"])
    samples = {s["index"]: s["problems"] for s in recorded["samples"]}
    assert len(expected) == len(decks), (
        f"{slug} {format_slug}: {len(decks)} decks, {len(expected)} recorded"
    )
    wrong = [
        item.index
        for item, problems, digest in zip(decks, found, expected, strict=True)
        if corpus.problems_digest(problems) != digest
    ]
    lines = [
        f"{slug} {format_slug}, deck {index} ({decks[index].kind}): problems now "
        f"{corpus.plain_problems(found[index])}"
        + (f"; recorded {samples[index]}" if index in samples else "")
        for index in wrong[:SHOWN]
    ]
    assert not wrong, (
        f"{len(wrong)} of {len(decks)} decks get other problems than recorded:\n" + "\n".join(lines)
    )


@pytest.mark.parametrize(("slug", "format_slug"), FORMATS)
def test_the_corpus_decks_are_the_decks_recorded(slug: str, format_slug: str) -> None:
    # Decks are found by trying cards against the rules, so a rule that answers otherwise can
    # change the decks themselves; this names the blocks where that happened.
    recorded = _golden(slug, format_slug)["deck_blocks"]
    now = corpus.deck_block_digests(_corpus(slug, format_slug))
    moved = [
        f"decks {i * corpus.DECK_BLOCK}-{(i + 1) * corpus.DECK_BLOCK - 1}"
        for i, (a, b) in enumerate(zip(now, recorded, strict=False))
        if a != b
    ]
    assert len(now) == len(recorded) and not moved, (
        f"{slug} {format_slug}: the generated decks are not those recorded ({', '.join(moved)})"
    )


@pytest.mark.parametrize(("slug", "format_slug"), FORMATS)
def test_a_corpus_holds_2000_decks_of_every_kind(slug: str, format_slug: str) -> None:
    fmt = _format(slug, format_slug)
    kinds = Counter(d.kind for d in _corpus(slug, format_slug))
    wanted = {
        *corpus.FIXED_KINDS,
        "mutation",
        *(corpus.rule_kind(fmt, i) for i in range(len(fmt.rules))),
    }
    assert sum(kinds.values()) >= 2000
    assert wanted <= set(kinds), f"kinds missing: {sorted(wanted - set(kinds))}"
    assert not [k for k in kinds if k.startswith("rule-unbroken")], kinds


@pytest.mark.parametrize(("slug", "format_slug"), FORMATS)
def test_every_rule_of_a_format_is_broken_by_the_decks_made_to_break_it(
    slug: str, format_slug: str
) -> None:
    fmt, decks, found = _checked(slug, format_slug)
    for index, rule in enumerate(fmt.rules):
        kind = corpus.rule_kind(fmt, index)
        breaking = [found[d.index] for d in decks if d.kind == kind]
        assert breaking and all(
            any(p.source == rule.source for p in problems) for problems in breaking
        ), f"{kind}: not every deck made to break it gets its problem"


@pytest.mark.parametrize(("slug", "format_slug"), FORMATS)
def test_a_corpus_holds_legal_decks_and_every_problem_its_rules_report(
    slug: str, format_slug: str
) -> None:
    _, decks, found = _checked(slug, format_slug)
    legal = [d for d, problems in zip(decks, found, strict=True) if not problems]
    assert len(legal) >= len(decks) // 10
    assert all(not problems for d, problems in zip(decks, found, strict=True) if d.kind == "legal")
    codes = Counter(code for problems in found for code in {p.code for p in problems})
    errors = Counter(
        code
        for problems in found
        for code in {p.code for p in problems if p.severity == Severity.ERROR}
    )
    # Every code a rule reports is met in a meaningful number of decks (an empty deck's own
    # code only in those made to break that rule).
    assert min(codes.values()) >= 40, codes
    assert sum(errors.values()) >= len(decks) // 2, errors
