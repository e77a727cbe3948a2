"""A curator's card file (the importer's CSV) proposed whole, reviewed as one diff of N cards
and approved all or nothing.

The file is checked whole by the importer's own checks when proposed, so a bad file is
refused at once with every line and field at fault, and nothing is stored. Approval re-reads
the stored file and imports it against the catalogue as it is then (not as it was when
proposed): the proposal's diff is the one seen at proposal time, and the approval re-checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone

from cardsite.catalogue.documents import DocumentError, Problem, read_document
from cardsite.catalogue.models import Card, CardChange, CardSet, Game
from cardsite.catalogue.selectors import card_queryset
from cardsite.catalogue.services.check import CleanCard, check_document
from cardsite.catalogue.services.edits import card_values, field_labels
from cardsite.catalogue.services.write import catalogue_import
from cardsite.contributions.limits import (
    BULK_SAMPLE,
    MAX_BULK_BYTES,
)
from cardsite.contributions.models import Proposal
from cardsite.contributions.selectors import is_curator
from cardsite.contributions.services.intake import proposer_check, source_check, store_open
from engines.bounds import capped
from engines.errors import InputError

# How many of a refused file's problems its message lists; the rest are counted.
SHOWN_PROBLEMS = 20
_CHUNK = 2000
_IN_CHUNK = 900


def problems_message(problems: Iterable[Problem]) -> str:
    """A refused file's problems, as "line N, field: message", the first SHOWN_PROBLEMS of
    them and how many more."""
    shown, more = capped(list(problems), SHOWN_PROBLEMS)
    return "; ".join(str(p) for p in shown) + (f"; and {more:,} more problems" if more else "")


def _read(game: Game, raw: bytes) -> list[CleanCard]:
    try:
        document = read_document(raw, "csv", game.engine.stats)
        _, cards = check_document(game, game.engine, document)
    except DocumentError as exc:
        raise InputError("file", problems_message(exc.problems)) from None
    sample = {
        c.upper()
        for c in CardSet.objects.filter(game=game, is_official=False).values_list("code", flat=True)
    }
    wrong = [
        Problem(c.record.line, "set", "a card file writes official sets, not a sample set")
        for c in cards
        if c.set_code in sample
    ]
    if wrong:
        raise InputError("file", problems_message(wrong))
    return cards


def _shown(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return "; ".join(str(v) for v in value)
    return "" if value is None else value


def _existing(game: Game) -> dict[tuple[str, str], Card]:
    return {
        (c.card_set.code.upper(), c.number): c
        for c in Card.objects.filter(game=game)
        .select_related("card_set")
        .only("id", "number", "content_hash", "card_set__code")
    }


def _after(clean: CleanCard) -> dict[str, Any]:
    """A file's card under change names: its stats flattened, as card_values has them."""
    data = clean.record.data
    return {**{k: v for k, v in data.items() if k != "stats"}, **(data.get("stats") or {})}


def _summary(game: Game, cards: list[CleanCard]) -> dict[str, Any]:
    existing = _existing(game)
    new: list[dict[str, Any]] = []
    sampled: list[tuple[int, CleanCard]] = []
    counts = {"new": 0, "changed": 0, "unchanged": 0}
    for clean in cards:
        card = existing.get((clean.set_code, clean.values["number"]))
        if card is not None and card.content_hash == clean.content_hash:
            counts["unchanged"] += 1
        elif card is None:
            counts["new"] += 1
            if len(new) < BULK_SAMPLE:
                new.append(
                    {
                        "line": clean.record.line,
                        "set": clean.set_code,
                        "number": clean.values["number"],
                        "name": clean.values["name"],
                    }
                )
        else:
            counts["changed"] += 1
            if len(sampled) < BULK_SAMPLE:
                sampled.append((card.pk, clean))
    # Only the sampled cards are read whole, together: unchanged ones cost a hash compare.
    olds = _values([pk for pk, _ in sampled])
    known = field_labels(game.engine)
    changed = []
    for pk, clean in sampled:
        before = olds[pk]
        diff = [
            {"field": k, "from": _shown(before.get(k)), "to": _shown(v)}
            for k, v in _after(clean).items()
            if k in known and str(_shown(before.get(k))) != str(_shown(v))
        ]
        changed.append(
            {
                "line": clean.record.line,
                "set": clean.set_code,
                "number": clean.values["number"],
                "name": clean.values["name"],
                "diff": diff,
            }
        )
    return {
        **counts,
        "total": len(cards),
        "sample_new": new,
        "sample_changed": changed,
        "more_new": counts["new"] - len(new),
        "more_changed": counts["changed"] - len(changed),
        # A CSV names cards only: sets, factions and keywords it names must exist already.
        "new_sets": 0,
        "note": "A card file can only add and change cards; its sets, factions and keywords "
        "must exist already.",
    }


def file_propose(
    *,
    curator: User,
    game: Game,
    upload: UploadedFile,
    source: Any,
    note: str = "",
    email_me: bool = False,
) -> Proposal:
    """Store a card file as one proposal, or refuse it storing nothing: PermissionDenied for a
    non-curator, InputError naming the file's problems by line and field, LimitReached past
    MAX_OPEN_PER_USER. The per-request throttles are the caller's."""
    if not is_curator(curator, game.pk):
        raise PermissionDenied(f"Only a curator of {game.name} may propose a card file.")
    note = proposer_check(curator, note)
    too_large = f"a card file may be at most {MAX_BULK_BYTES // (1024 * 1024)} MB (MAX_BULK_BYTES)"
    if upload.size is None or upload.size > MAX_BULK_BYTES:
        raise InputError("file", too_large)
    source = source_check(source, False)
    raw = upload.read(MAX_BULK_BYTES + 1)
    if len(raw) > MAX_BULK_BYTES:
        raise InputError("file", too_large)
    cards = _read(game, raw)
    if not cards:
        raise InputError("file", "the file names no cards")
    proposal = Proposal(
        game=game,
        kind=Proposal.Kind.BULK,
        proposer=curator,
        source_kind=source.kind,
        source_text=source.text,
        source_url=source.url,
        note=note,
        email_me=email_me,
        summary=_summary(game, cards),
    )
    return store_open(proposal, file_field="bulk_file", content=ContentFile(raw, name="cards.csv"))


def _values(ids: list[int]) -> dict[int, dict[str, Any]]:
    """Cards' values by id, read in chunks: SQLite bounds a query's parameters."""
    values: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), _IN_CHUNK):
        for card in card_queryset().filter(pk__in=ids[start : start + _IN_CHUNK]):
            values[card.pk] = card_values(card)
    return values


def file_approve(*, proposal: Proposal, reviewer: User) -> dict[str, int]:
    """Import the proposal's stored file and record each card's history, in the caller's
    transaction: any failure leaves nothing written. InputError naming the file's problems
    when it is no longer valid for the catalogue as it is now (it is checked again)."""
    game = proposal.game
    with proposal.bulk_file.open("rb") as handle:
        raw = handle.read()
    # The stored file passed _read when proposed and cannot change since; the import checks
    # it again against the catalogue as it is now.
    created: list[Card] = []
    before: dict[int, dict[str, Any]] = {}

    def note_old_values(new: list[Card], changed_ids: list[int]) -> None:
        created.extend(new)
        before.update(_values(changed_ids))

    source = {**proposal.source_dict(), "proposal": proposal.pk}
    with transaction.atomic():
        try:
            document = read_document(raw, "csv", game.engine.stats)
            summary = catalogue_import(
                game_slug=game.slug, document=document, before_write=note_old_values
            )
        except DocumentError as exc:
            raise InputError("file", problems_message(exc.problems)) from None
        now = timezone.now()
        new_ids = [card.pk for card in created]
        for start in range(0, len(new_ids), _IN_CHUNK):
            Card.objects.filter(pk__in=new_ids[start : start + _IN_CHUNK]).update(
                community="sourced"
            )

        def change(card_id: int, field: str, old: Any, new: Any) -> CardChange:
            return CardChange(
                card_id=card_id,
                field=field,
                before=old,
                after=new,
                author=proposal.proposer,
                reviewer=reviewer,
                source=source,
                proposal=proposal.pk,
                at=now,
            )

        records = [change(card.pk, "card", None, card.name) for card in created]
        after = _values(list(before))
        for pk, old in before.items():
            records += [
                change(pk, k, old.get(k), v) for k, v in after[pk].items() if old.get(k) != v
            ]
        CardChange.objects.bulk_create(records, batch_size=_CHUNK)
    return {"created": summary.created, "updated": summary.updated}
