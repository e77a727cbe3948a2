"""The proposal services on the real database: every kind proposed and approved, refusals
that store nothing, the limits, review rules, staleness, reverts and confirmation."""

import datetime as dt
import io
import os

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from cardsite.catalogue.models import Card, CardChange, CardSet
from cardsite.catalogue.services.edits import card_change_revert, card_confirm, card_values
from cardsite.catalogue.versioning import catalogue_version
from cardsite.contributions.limits import MAX_OPEN_PER_USER
from cardsite.contributions.models import Curator, Notification, Proposal
from cardsite.contributions.services.proposals import (
    ProposalClosed,
    SourceInput,
    StaleProposal,
    proposal_approve,
    proposal_create,
    proposal_reject,
)
from cardsite.limits import LimitReached
from engines.errors import InputError

from .conftest import _user, jpeg

pytestmark = pytest.mark.django_db
RULEBOOK = SourceInput(kind="rulebook", text="page 9")


def _photos() -> set[str]:
    root = os.path.join(settings.MEDIA_ROOT, "proposals")
    return set(os.listdir(root)) if os.path.isdir(root) else set()


def _propose(player, game, **kw):
    return proposal_create(proposer=player, game=game, source=kw.pop("source", RULEBOOK), **kw)


def _refused(player, game, field, **kw):
    before, photos = Proposal.objects.count(), _photos()
    with pytest.raises(InputError) as caught:
        _propose(player, game, **kw)
    assert caught.value.field == field
    assert Proposal.objects.count() == before
    assert _photos() == photos
    return caught.value


def test_an_edit_proposed_and_approved_changes_the_card_and_records_the_change(
    player, curator, game, card
):
    version = catalogue_version()
    proposal = _propose(player, game, kind="edit", card=card, changes={"text": "Draw two cards."})
    assert proposal.status == "open" and proposal.base == {"text": card_values(card)["text"]}
    proposal_approve(proposal=proposal, reviewer=curator)
    card.refresh_from_db()
    assert card_values(card)["text"] == "Draw two cards."
    [change] = CardChange.objects.filter(card=card)
    assert (change.field, change.after, change.author, change.reviewer) == (
        "text",
        "Draw two cards.",
        player,
        curator,
    )
    assert change.source["kind"] == "rulebook" and change.source["proposal"] == proposal.pk
    assert catalogue_version() != version


def test_a_new_card_proposed_and_approved_is_an_official_community_sourced_card(
    player, curator, game, card
):
    proposal = _propose(
        player,
        game,
        kind="card",
        changes={
            "set": card.card_set.code,
            "number": "990",
            "name": "Hand Card",
            "type": card.card_type.name if card.card_type else "",
        },
    )
    approved = proposal_approve(proposal=proposal, reviewer=curator)
    new = Card.objects.get(pk=approved.card_id)
    assert (new.name, new.community) == ("Hand Card", "sourced")
    assert CardChange.objects.filter(card=new, field="card").exists()


def test_a_ruling_and_an_erratum_proposed_and_approved_are_added_to_the_card(
    player, curator, game, card
):
    for kind, field in (("ruling", "rulings"), ("erratum", "errata")):
        proposal = _propose(player, game, kind=kind, card=card, changes={field: "It counts twice."})
        proposal_approve(proposal=proposal, reviewer=curator)
    card.refresh_from_db()
    assert [r["text"] for r in card_values(card)["rulings"]][-1] == "It counts twice."
    assert CardChange.objects.filter(card=card, field="errata").exists()


def test_an_image_proposed_is_private_and_public_only_once_approved(player, curator, game, card):
    proposal = _propose(
        player, game, kind="image", card=card, source=SourceInput(kind="printed_card"), photo=jpeg()
    )
    assert proposal.photo.name.startswith("proposals/")
    assert not proposal.photo.name.startswith("art/")
    proposal_approve(proposal=proposal, reviewer=curator)
    card.refresh_from_db()
    assert card.art.name.startswith("art/")
    assert CardChange.objects.get(card=card, field="art").after == card.art.name


def test_a_new_set_proposed_and_approved_is_an_official_set(player, curator, game):
    proposal = _propose(
        player, game, kind="set", changes={"code": "CFC-X1", "name": "Expansion One"}
    )
    proposal_approve(proposal=proposal, reviewer=curator)
    assert CardSet.objects.get(game=game, code="CFC-X1").is_official


def test_a_field_that_does_not_exist_is_refused_naming_it(player, game, card):
    _refused(player, game, "mana", kind="edit", card=card, changes={"mana": "3"})


def test_a_stat_out_of_its_range_is_refused_naming_it(player, game, card):
    error = _refused(player, game, "stars", kind="edit", card=card, changes={"stars": "9"})
    assert "3" in error.message


def test_ten_thousand_keywords_are_refused(player, game, card):
    keywords = ";".join(f"k{i}" for i in range(10_000))
    _refused(player, game, "keywords", kind="edit", card=card, changes={"keywords": keywords})


def test_html_in_text_is_refused(player, game, card):
    _refused(player, game, "text", kind="edit", card=card, changes={"text": "<script>x()</script>"})


def test_an_invalid_value_with_a_photo_leaves_no_photo_behind(player, game, card):
    _refused(
        player,
        game,
        "stars",
        kind="edit",
        card=card,
        changes={"stars": "9"},
        source=SourceInput(kind="printed_card"),
        photo=jpeg(),
    )


def test_a_fifty_megabyte_image_is_refused_naming_the_limit(player, game, card):
    big = SimpleUploadedFile("big.jpg", b"\xff\xd8" + b"0" * (50 * 1024 * 1024), "image/jpeg")
    error = _refused(
        player,
        game,
        "photo",
        kind="image",
        card=card,
        source=SourceInput("printed_card"),
        photo=big,
    )
    assert "10 MB" in error.message


def test_a_decompression_bomb_is_refused(player, game, card):
    out = io.BytesIO()
    Image.new("L", (1, 1)).save(out, "PNG")
    data = bytearray(out.getvalue())
    # Rewrite the IHDR's width and height to 100,000 x 100,000 (its CRC is then wrong too).
    data[16:24] = (100_000).to_bytes(4, "big") * 2
    bomb = SimpleUploadedFile("bomb.png", bytes(data), "image/png")
    _refused(
        player,
        game,
        "photo",
        kind="image",
        card=card,
        source=SourceInput("printed_card"),
        photo=bomb,
    )


def test_exif_with_gps_is_stripped_from_a_stored_photo(player, game, card):
    exif = Image.Exif()
    exif[0x8825] = {1: "N", 2: (51.0, 30.0, 0.0)}
    exif[0x010F] = "PhoneMaker"
    out = io.BytesIO()
    Image.new("RGB", (60, 84), (0, 90, 0)).save(out, "JPEG", exif=exif)
    assert Image.open(io.BytesIO(out.getvalue())).getexif()
    proposal = _propose(
        player,
        game,
        kind="image",
        card=card,
        source=SourceInput("printed_card"),
        photo=SimpleUploadedFile("gps.jpg", out.getvalue(), "image/jpeg"),
    )
    with proposal.photo.open("rb") as handle:
        stored = Image.open(io.BytesIO(handle.read()))
        assert not stored.getexif()
        assert "exif" not in stored.info


@pytest.mark.parametrize(
    "source, field",
    [
        (SourceInput(kind=""), "source"),
        (SourceInput(kind="rulebook"), "source"),
        (SourceInput(kind="printed_card"), "photo"),
        (SourceInput(kind="publisher", url="ftp://example.com/cards"), "source"),
        (SourceInput(kind="publisher", url="javascript:alert(1)"), "source"),
    ],
)
def test_a_proposal_without_a_proper_source_is_refused(player, game, card, source, field):
    _refused(player, game, field, kind="edit", card=card, changes={"text": "X"}, source=source)


def test_a_publisher_page_over_https_is_a_source(player, game, card):
    proposal = _propose(
        player,
        game,
        kind="edit",
        card=card,
        changes={"text": "X"},
        source=SourceInput(kind="publisher", url="https://example.com/cards"),
    )
    assert proposal.source_url == "https://example.com/cards"


def test_an_account_younger_than_an_hour_may_not_propose(game, card):
    young = _user("young")
    young.date_joined = timezone.now() - dt.timedelta(minutes=59)
    with pytest.raises(PermissionDenied):
        _propose(young, game, kind="edit", card=card, changes={"text": "X"})
    assert not Proposal.objects.exists()


def test_the_fifty_first_open_proposal_is_refused_naming_the_limit(player, game, card):
    Proposal.objects.bulk_create(
        [
            Proposal(game=game, card=card, kind="edit", proposer=player, changes={"text": str(i)})
            for i in range(MAX_OPEN_PER_USER)
        ]
    )
    with pytest.raises(LimitReached) as caught:
        _propose(player, game, kind="edit", card=card, changes={"text": "X"})
    assert caught.value.code == "open_proposals"
    assert Proposal.objects.filter(proposer=player).count() == MAX_OPEN_PER_USER


def test_nobody_reviews_their_own_proposal(game, card):
    both = _user("both")
    Curator.objects.create(user=both, game=game)
    proposal = _propose(both, game, kind="edit", card=card, changes={"text": "X"})
    with pytest.raises(PermissionDenied):
        proposal_approve(proposal=proposal, reviewer=both)
    with pytest.raises(PermissionDenied):
        proposal_reject(proposal=proposal, reviewer=both, reason="no")


def test_a_non_curator_and_another_games_curator_cannot_review(proposal, other, foreign_curator):
    for reviewer in (other, foreign_curator):
        with pytest.raises(PermissionDenied):
            proposal_approve(proposal=proposal, reviewer=reviewer)
        with pytest.raises(PermissionDenied):
            proposal_reject(proposal=proposal, reviewer=reviewer, reason="no")
    proposal.refresh_from_db()
    assert proposal.status == "open"


def test_a_closed_proposal_cannot_be_reviewed_again(proposal, curator):
    proposal_reject(proposal=proposal, reviewer=curator, reason="Not on the printed card.")
    with pytest.raises(ProposalClosed):
        proposal_approve(proposal=proposal, reviewer=curator)
    with pytest.raises(ProposalClosed):
        proposal_reject(proposal=proposal, reviewer=curator, reason="again")


def test_a_rejection_needs_a_reason_and_tells_the_proposer(proposal, curator, player):
    with pytest.raises(InputError):
        proposal_reject(proposal=proposal, reviewer=curator, reason="  ")
    proposal_reject(proposal=proposal, reviewer=curator, reason="Misprint.")
    assert Notification.objects.filter(user=player).exists()
    assert not CardChange.objects.exists()


def test_the_proposer_is_mailed_only_when_they_chose_it(
    player, curator, game, card, django_capture_on_commit_callbacks
):
    # The mail goes once the review has committed.
    quiet = _propose(player, game, kind="edit", card=card, changes={"text": "A"})
    with django_capture_on_commit_callbacks(execute=True):
        proposal_approve(proposal=quiet, reviewer=curator)
    assert mail.outbox == []
    loud = _propose(player, game, kind="edit", card=card, changes={"text": "B"}, email_me=True)
    with django_capture_on_commit_callbacks(execute=True):
        proposal_reject(proposal=loud, reviewer=curator, reason="Misprint.")
    assert [m.to for m in mail.outbox] == [["player@example.com"]]
    assert "Misprint." in mail.outbox[0].body


def _stale(player, other, curator, game, card):
    proposal = _propose(player, game, kind="edit", card=card, changes={"text": "Proposed."})
    newer = _propose(other, game, kind="edit", card=card, changes={"text": "Newer."})
    proposal_approve(proposal=newer, reviewer=curator)
    return proposal


def test_a_stale_proposal_names_then_now_and_proposed(player, other, curator, game, card):
    then = card_values(card)["text"]
    proposal = _stale(player, other, curator, game, card)
    with pytest.raises(StaleProposal) as caught:
        proposal_approve(proposal=proposal, reviewer=curator)
    [stale] = caught.value.fields
    assert (stale.field, stale.then, stale.now, stale.proposed) == (
        "text",
        then,
        "Newer.",
        "Proposed.",
    )
    card.refresh_from_db()
    assert card_values(card)["text"] == "Newer."


@pytest.mark.parametrize("choice, text", [("proposed", "Proposed."), ("current", "Newer.")])
def test_a_curator_resolves_a_stale_field_either_way(
    player, other, curator, game, card, choice, text
):
    proposal = _stale(player, other, curator, game, card)
    proposal_approve(proposal=proposal, reviewer=curator, resolve={"text": choice})
    card.refresh_from_db()
    assert card_values(card)["text"] == text


def test_approve_with_edits_writes_the_edited_value(proposal, curator, card):
    proposal_approve(proposal=proposal, reviewer=curator, edits={"name": "Edited Name"})
    card.refresh_from_db()
    assert card.name == "Edited Name"


def test_approve_with_invalid_edits_writes_nothing(proposal, curator, card):
    name = card.name
    with pytest.raises(InputError) as caught:
        proposal_approve(proposal=proposal, reviewer=curator, edits={"stars": "9"})
    assert caught.value.field == "stars"
    card.refresh_from_db()
    proposal.refresh_from_db()
    assert (card.name, proposal.status) == (name, "open")
    assert not CardChange.objects.exists()


def test_changing_the_number_moves_the_card_and_keeps_its_short_id(player, curator, game, card):
    short_id = card.short_id
    proposal = _propose(player, game, kind="edit", card=card, changes={"number": "977"})
    proposal_approve(proposal=proposal, reviewer=curator)
    card.refresh_from_db()
    assert (card.number, card.short_id) == ("977", short_id)


def test_a_number_taken_by_another_card_is_refused(player, game, card):
    taken = Card.objects.create(game=game, card_set=card.card_set, number="77", name="Other")
    changes = {"number": taken.number}
    _refused(player, game, "number", kind="edit", card=card, changes=changes)


def test_a_revert_puts_a_field_back_as_a_change_of_its_own(proposal, curator, card):
    name = card.name
    proposal_approve(proposal=proposal, reviewer=curator)
    [change] = CardChange.objects.filter(card=card)
    [revert] = card_change_revert(change=change, reviewer=curator)
    card.refresh_from_db()
    assert card.name == name and revert.reverts == change


def test_a_revert_of_a_ruling_puts_the_list_back(player, curator, game, card):
    rulings = list(card_values(card)["rulings"])
    proposal = _propose(player, game, kind="ruling", card=card, changes={"rulings": "Twice."})
    proposal_approve(proposal=proposal, reviewer=curator)
    card_change_revert(change=CardChange.objects.get(card=card), reviewer=curator)
    card.refresh_from_db()
    assert card_values(card)["rulings"] == rulings


def _approved_new_card(player, curator, card, *, number: str, name: str) -> Card:
    """A player's new card in `card`'s set and of its type, approved by the curator."""
    proposal = _propose(
        player,
        card.game,
        kind="card",
        changes={
            "set": card.card_set.code,
            "number": number,
            "name": name,
            "type": card.card_type.name if card.card_type else "",
        },
    )
    return proposal_approve(proposal=proposal, reviewer=curator).card


def test_a_card_addition_is_reverted_by_removing_the_card(player, curator, game, card):
    new = _approved_new_card(player, curator, card, number="991", name="Gone Soon")
    card_change_revert(change=CardChange.objects.get(card=new, field="card"), reviewer=curator)
    assert not Card.objects.filter(pk=new.pk).exists()


def test_a_card_is_confirmed_by_a_second_curator_only(player, curator, game, card):
    new = _approved_new_card(player, curator, card, number="992", name="Confirm Me")
    with pytest.raises(InputError):
        card_confirm(card=new, curator=curator)
    second = _user("second")
    Curator.objects.create(user=second, game=game)
    assert card_confirm(card=new, curator=second).community == "confirmed"
