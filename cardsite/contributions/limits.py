"""What one proposal, and one proposer, may ask; each is in the Limits table
(docs/pages/operations.md), and a refusal names it."""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest

from cardsite.limits import spend

MAX_OPEN_PER_USER = 50
MIN_ACCOUNT_AGE = dt.timedelta(hours=1)
MAX_SOURCE_TEXT = 1_000
MAX_NOTE = 2_000
MAX_REASON = 2_000
# A photo or scan of one card: a phone's photo is 2 to 6 MB.
MAX_PHOTO_BYTES = 10 * 1024 * 1024
# A card file (the importer's CSV) proposed whole: the 100,000-card synthetic catalogue is
# about 25 MB.
MAX_BULK_BYTES = 40 * 1024 * 1024
# A request carrying a photo or a file may be settings.MAX_UPLOAD_BODY in all (a card file
# and its form); beyond it the middleware answers 413 before the body is read.
# How many of a card file's changed cards its proposal keeps to show; the counts are whole.
BULK_SAMPLE = 200


def spend_proposal(request: HttpRequest) -> None:
    """Count one proposal against its user's budget and its address's; LimitReached (a 429
    naming the limit) once either is spent."""
    spend(request, "proposals")
    spend(request, "proposals_address")
