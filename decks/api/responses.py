"""Answers several deck endpoints share."""

from __future__ import annotations

from rest_framework import status
from rest_framework.response import Response

from decks.services import DeckContentError, problem_json

JOB_ACCEPTED = (
    "A background job: with `Prefer: respond-async`, or for large work when the site has a "
    "worker. Poll the Location header's URL (the body's `url`); fetch `result_url` once done."
)


def content_error(
    error: DeckContentError, detail: str = "Some cards cannot be saved; nothing was saved."
) -> Response:
    """A 400 for cards that cannot be used, each problem naming its card and line."""
    return Response(
        {
            "code": "invalid_cards",
            "detail": detail,
            "problems": [problem_json(p) for p in error.problems],
        },
        status=status.HTTP_400_BAD_REQUEST,
    )
