"""A simulation's charts as labelled bars for a page."""

from __future__ import annotations

from typing import Any


def bars(histogram: dict[str, int]) -> list[dict[str, Any]]:
    tallest = max(histogram.values(), default=0) or 1
    # Label every n-th bar only, so a long axis stays legible.
    step = max(1, len(histogram) // 10)
    return [
        {"label": k, "count": v, "percent": round(100 * v / tallest), "show": i % step == 0}
        for i, (k, v) in enumerate(histogram.items())
    ]


def charts(charts: dict[str, Any]) -> list[dict[str, Any]]:
    """Every chart of a goldfish answer as labelled bars: histograms (value -> games) and
    per-turn probabilities (a list of shares)."""
    out = []
    for name, chart in charts.items():
        title = name.replace("_", " ").capitalize()
        if isinstance(chart, dict) and all(isinstance(v, int) for v in chart.values()):
            out.append({"title": title, "bars": bars(chart)})
        elif isinstance(chart, dict):
            out += [{"title": f"{title}: {k}", "bars": bars(v)} for k, v in chart.items()]
        elif chart and isinstance(chart[0], dict):
            out += [{"title": f"{title}, {i + 1}", "bars": bars(h)} for i, h in enumerate(chart)]
        else:
            out.append(
                {
                    "title": f"{title} (share of games, by turn)",
                    "bars": [
                        {"label": str(i + 1), "count": v, "percent": round(100 * v), "show": True}
                        for i, v in enumerate(chart)
                    ],
                }
            )
    return out
