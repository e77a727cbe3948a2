"""Answers several deck endpoints share."""

from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response

from decks.services import DeckConflict, DeckContentError, problem_json

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


class PreconditionRequired(APIException):
    status_code = 428
    default_detail = "Send If-Match with the deck's ETag, or the version you read, to replace it."
    default_code = "precondition_required"


def stale_version(error: DeckConflict, *, from_header: bool) -> Response:
    """A write based on a version the deck has moved on from: 412 when If-Match named it,
    409 when the body did."""
    return Response(
        {
            "code": "stale_version",
            "detail": f"The deck has changed: it is now at version {error.current}. Read it "
            "again and reapply your change.",
            "current": error.current,
        },
        status=status.HTTP_412_PRECONDITION_FAILED if from_header else status.HTTP_409_CONFLICT,
    )
