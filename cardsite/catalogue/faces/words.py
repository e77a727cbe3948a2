"""What a face says in words: its type line and the paragraphs of its text box.

Kept apart from the drawing so that what is written can be read, and tested, without
knowing where on the card it goes.
"""

from __future__ import annotations

import re

from cardsite.catalogue.faces.data import FaceData, KeywordMark
from cardsite.catalogue.faces.palette import SOFT_INK
from cardsite.catalogue.faces.typesetting import Block, Run, Style
from engines.base import FaceLayout, GameEngine


def stat_text(value: object) -> str:
    return str(value).title() if isinstance(value, str) else str(value)


TYPE_NOT_GIVEN = "type not given"


def type_words(data: FaceData, engine: GameEngine) -> str:
    """The type line after the type itself; for a card with no stated type, the drawing puts
    TYPE_NOT_GIVEN in front of it in a quieter style."""
    layout = engine.face
    line = data.type_name or ""
    if data.subtypes:
        line += " — " + ", ".join(data.subtypes)
    extras = [f.name for f in data.factions]
    for key in layout.tag_stats:
        if data.stats.get(key) is not None:
            value = stat_text(data.stats[key])
            symbol = layout.symbol(key)
            spec = engine.stat(key)
            label = spec.label if spec else key
            extras.append(f"{value} {symbol}" if symbol else f"{label}: {value}")
    if extras:
        line += "  ·  " + " · ".join(extras)
    return line


def text_blocks(data: FaceData, layout: FaceLayout, with_flavour: bool) -> list[Block]:
    text = data.rules_text
    shown = [k for k in data.keywords if k.kind not in layout.badge_keyword_kinds]
    mentioned = {k for k in data.keywords if re.search(rf"\b{re.escape(k.name)}\b", text, re.I)}
    lead_kinds = layout.lead_keyword_kinds
    leads = [k for k in shown if k.kind in lead_kinds and k not in mentioned]
    # Keywords the text already spells out are not repeated above it.
    listed = [k for k in shown if k not in mentioned and k not in leads]
    blocks: list[Block] = []
    if listed:
        blocks.append(Block((Run(" · ".join(k.name for k in listed), Style.BOLD),)))
    paragraphs = [p.strip() for p in text.splitlines() if p.strip()]
    for index, paragraph in enumerate(paragraphs):
        runs: list[Run] = []
        if index == 0 and leads:
            runs.append(Run(", ".join(k.name for k in leads) + ": ", Style.BOLD))
        runs += keyword_runs(paragraph, data.keywords)
        blocks.append(Block(tuple(runs)))
    if leads and not paragraphs:
        blocks.append(Block((Run(", ".join(k.name for k in leads), Style.BOLD),)))
    if with_flavour and data.flavour_text:
        if blocks:
            blocks.append(Block((), SOFT_INK))
        for paragraph in data.flavour_text.splitlines():
            if paragraph.strip():
                run = Run(paragraph.strip(), Style.ITALIC)
                blocks.append(Block((run,), SOFT_INK, size_offset=-2))
    return blocks


def keyword_runs(paragraph: str, keywords: tuple[KeywordMark, ...]) -> list[Run]:
    """The paragraph with keywords that open a sentence ("Removal: ...") in bold."""
    names = sorted((k.name for k in keywords), key=len, reverse=True)
    if not names:
        return [Run(paragraph)]
    alternatives = "|".join(re.escape(name) for name in names)
    pattern = re.compile(rf"(?:^|(?<=[.!?]\s))(?:{alternatives})\b:?", re.I)
    runs: list[Run] = []
    cursor = 0
    for match in pattern.finditer(paragraph):
        if match.start() > cursor:
            runs.append(Run(paragraph[cursor : match.start()]))
        runs.append(Run(match.group(), Style.BOLD))
        cursor = match.end()
    if cursor < len(paragraph):
        runs.append(Run(paragraph[cursor:]))
    return runs
