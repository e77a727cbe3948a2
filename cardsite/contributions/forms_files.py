"""The card-file form's input, read from a post: the file, its source, a note and whether to
e-mail the outcome."""

from __future__ import annotations

from django.http import QueryDict

from cardsite.contributions.services.proposals import SourceInput


def posted_source(data: QueryDict) -> SourceInput:
    return SourceInput(
        kind=data.get("source_kind", "")[:20],
        text=data.get("source_text", ""),
        url=data.get("source_url", ""),
    )
