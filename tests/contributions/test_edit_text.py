"""What a change's texts become: every kind of line break written as one, a field of one line
kept to one line, and a revert that puts back what the card had even where that is more than
a proposal may bring."""

import pytest

from cardsite.catalogue.models import CardChange, Ruling
from cardsite.catalogue.services.edits import (
    MAX_LIST_ITEMS,
    MAX_TEXT,
    card_change_revert,
    card_values,
)
from cardsite.contributions.services.proposals import (
    SourceInput,
    proposal_approve,
    proposal_create,
    proposal_reject,
)
from engines.errors import InputError

pytestmark = pytest.mark.django_db
RULEBOOK = SourceInput("rulebook", "page 3")
BREAKS = ["\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]


def _edit(player, game, card, **changes):
    return proposal_create(
        proposer=player, game=game, kind="edit", card=card, changes=changes, source=RULEBOOK
    )


@pytest.mark.parametrize("line_break", BREAKS)
def test_every_line_break_in_rules_text_is_written_as_one_newline(
    line_break, player, curator, game, card
):
    proposal = _edit(player, game, card, text=f"Draw a card.{line_break}Then discard one.")
    proposal_approve(proposal=proposal, reviewer=curator)
    card.refresh_from_db()
    assert card.rules_text == "Draw a card.\nThen discard one."


@pytest.mark.parametrize("line_break", ["\n", *BREAKS])
def test_a_name_of_two_lines_is_refused_naming_the_name(line_break, player, game, card):
    with pytest.raises(InputError) as caught:
        _edit(player, game, card, name=f"Two{line_break}Lines")
    assert (caught.value.field, caught.value.message) == (
        "name",
        "is one line: it may not hold a line break",
    )


def test_a_note_a_source_and_a_reason_keep_their_lines_as_newlines(player, curator, game, card):
    proposal = proposal_create(
        proposer=player,
        game=game,
        kind="edit",
        card=card,
        changes={"artist": "A. Painter"},
        source=SourceInput("rulebook", "page 3\r\nsecond column"),
        note="seen\u2028twice",
    )
    assert (proposal.source_text, proposal.note) == ("page 3\nsecond column", "seen\ntwice")
    proposal_reject(proposal=proposal, reviewer=curator, reason="not\rso")
    proposal.refresh_from_db()
    assert proposal.reason == "not\nso"


def test_a_revert_puts_back_every_ruling_even_past_what_a_proposal_may_list(
    player, curator, game, card
):
    many = MAX_LIST_ITEMS + 1
    Ruling.objects.bulk_create(
        [Ruling(card=card, position=i, text=f"Ruling {i}.") for i in range(many)]
    )
    proposal = proposal_create(
        proposer=player,
        game=game,
        kind="ruling",
        card=card,
        changes={"rulings": "One more."},
        source=RULEBOOK,
    )
    proposal_approve(proposal=proposal, reviewer=curator)
    added = CardChange.objects.get(card=card, field="rulings")
    card_change_revert(change=added, reviewer=curator)
    assert [r["text"] for r in card_values(card)["rulings"]] == [
        f"Ruling {i}." for i in range(many)
    ]


def test_a_revert_puts_back_a_loaded_text_longer_than_a_proposal_may_bring(
    player, curator, game, card
):
    loaded = "x" * (MAX_TEXT + 1) + " <Unit> tokens"
    type(card).objects.filter(pk=card.pk).update(rules_text=loaded)
    card.refresh_from_db()
    proposal_approve(proposal=_edit(player, game, card, text="Short."), reviewer=curator)
    card_change_revert(change=CardChange.objects.get(card=card, field="text"), reviewer=curator)
    card.refresh_from_db()
    assert card.rules_text == loaded
