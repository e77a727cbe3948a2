"""Numbers as deck pages write them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from decks.services.charts import DeckChart

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """A change in a count: "+1", "0", or a true minus sign (U+2212) as the diffs use."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"


@register.filter
def chart_head(chart: DeckChart) -> SafeString:
    """A chart table's head row. Its rows are written here, not by template loops: the
    builder draws its charts after every +/-, and each template lookup is paid per cell."""
    # Safe: every part is escaped just here.
    return mark_safe(
        f'<tr><th scope="col">{escape(chart.x_title)}</th>'
        + "".join(f'<th scope="col">{escape(s.name)}</th>' for s in chart.series)
        + "</tr>"
    )


@register.filter
def chart_body(chart: DeckChart) -> SafeString:
    """A chart table's rows: each category with its values (see chart_head for why here)."""
    # Safe: every part is escaped just here.
    return mark_safe(
        "".join(
            f'<tr><th scope="row">{escape(label)}</th>'
            + "".join(f"<td>{escape(v)}</td>" for v in values)
            + "</tr>"
            for label, values in chart.rows()
        )
    )


@register.filter
def curve_bars(curve: Sequence[Any], title: str) -> SafeString:
    """The panel head's small curve (decks.views.panel.mini_curve's bars) with its label for
    screen readers, written here as the chart tables are (see chart_head for why)."""
    said = ", ".join(f"{bar.label}: {bar.value}" for bar in curve)
    bars = "".join(
        f'<span class="bar" data-h="{bar.tenths}" title="{escape(bar.label)}: {bar.value}">'
        f'<span class="fill"></span><span class="label">{escape(bar.label)}</span></span>'
        for bar in curve
    )
    # Safe: every part is escaped just here.
    return mark_safe(
        f'<div class="mini-curve" role="img" aria-label="{escape(title)}: {escape(said)}">'
        f"{bars}</div>"
    )
