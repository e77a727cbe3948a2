"""History in human steps: one author's builder edits in a row fold into one version, which
keeps each step, so undo and redo work from the deck's history (after a reload too)."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User

from decks.models import DeckVersion
from decks.services import (
    DeckConflict,
    Intake,
    RequestedCard,
    deck_checkpoint,
    deck_redo,
    deck_revert,
    deck_set_quantity,
    deck_undo,
    deck_update,
)
from decks.services.history import (
    EDIT,
    FOLD_WINDOW,
    KEYFRAME_EVERY,
    NOTE_MAX,
    Summary,
    VersionNotFound,
    deck_state,
    latest_version,
    state_at,
    summary,
)
from decks.services.write import write_steps
from engines.errors import InputError
from tests.decks.services.test_history import main_cards, make_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("folder", password="x-Long-pass-9")


@pytest.fixture
def other():
    return User.objects.create_user("elsewhere", password="x-Long-pass-9")


def plus(deck, card, author, step=1):
    return deck_set_quantity(
        deck=deck, expected_version=deck.version, card=card.short_id, step=step, author=author
    )


def versions(deck):
    return list(
        DeckVersion.objects.filter(deck=deck)
        .order_by("number")
        .values_list("number", "changes", "steps", "open")
    )


def test_builder_edits_in_a_row_fold_into_one_version_at_the_decks_number(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    plus(deck, b, owner)
    plus(deck, b, owner)

    assert deck.version == 4
    assert len(versions(deck)) == 2
    number, changes, steps, open_ = versions(deck)[1]
    assert number == 4 and open_
    assert changes == sorted([[a.short_id, "main", 1, 2], [b.short_id, "main", 0, 2]])
    assert [kind for kind, _ in steps] == ["edit"] * 3
    assert state_at(deck, 4) == deck_state(deck)
    for folded in (2, 3):
        with pytest.raises(VersionNotFound):
            state_at(deck, folded)


def test_every_fold_still_moves_the_decks_version_so_a_stale_writer_is_refused(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    with pytest.raises(DeckConflict):
        deck_set_quantity(deck=deck, expected_version=1, card=b.short_id, step=1, author=owner)


def test_an_edit_more_than_ten_minutes_after_the_last_starts_a_new_version(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    DeckVersion.objects.filter(deck=deck, number=2).update(
        created_at=DeckVersion.objects.get(deck=deck, number=2).created_at
        - FOLD_WINDOW
        - timedelta(seconds=1)
    )
    plus(deck, b, owner)
    assert [v[0] for v in versions(deck)] == [1, 2, 3]


def test_an_edit_just_within_ten_minutes_still_folds(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    DeckVersion.objects.filter(deck=deck, number=2).update(
        created_at=DeckVersion.objects.get(deck=deck, number=2).created_at
        - FOLD_WINDOW
        + timedelta(seconds=30)
    )
    plus(deck, b, owner)
    assert [v[0] for v in versions(deck)] == [1, 3]


def test_another_authors_edit_is_never_folded_into_and_ends_the_fold(owner, other):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    plus(deck, b, other)
    plus(deck, b, owner)
    assert [(v[0], v[3]) for v in versions(deck)] == [(1, False), (2, True), (3, True), (4, True)]


@pytest.mark.parametrize(
    "write",
    [
        pytest.param({"changes": {"name": "Renamed"}}, id="settings"),
        pytest.param({"changes": {}, "maybe": {"PLANNED": 2}}, id="plan"),
    ],
)
def test_a_settings_change_or_any_api_write_keeps_its_own_version_and_ends_the_fold(owner, write):
    # The API writes through deck_update (decks/api/decks.py): never folded, never folding.
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    if "maybe" in write:
        write = {**write, "maybe": {b.short_id: 2}}
    deck_update(deck=deck, expected_version=deck.version, author=owner, **write)
    deck_update(deck=deck, expected_version=deck.version, author=owner, changes={"name": "Again"})
    plus(deck, a, owner)
    assert [(v[0], v[3]) for v in versions(deck)] == [
        (1, False),
        (2, True),
        (3, False),
        (4, False),
        (5, True),
    ]


def test_an_import_and_a_revert_each_keep_their_own_version(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    deck_revert(deck=deck, expected_version=deck.version, version=1, author=owner)
    plus(deck, b, owner)
    assert [v[0] for v in versions(deck)] == [1, 2, 3, 4]


def test_a_checkpoint_closes_the_fold_with_its_note_and_leaves_the_version(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    kept = deck_checkpoint(deck=deck, author=owner, note=" before the swap ", expected_version=2)
    assert (kept.number, kept.note, kept.open) == (2, "before the swap", False)
    assert deck.version == 2
    plus(deck, b, owner)
    assert [v[0] for v in versions(deck)] == [1, 2, 3]


def test_an_edit_that_read_its_version_before_a_checkpoint_closed_it_starts_a_new_one(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    # The +/- reads the latest version, then the owner's other tab saves a checkpoint on it
    # (which moves no deck version), then the +/- writes.
    read_before = latest_version(deck)
    deck_checkpoint(deck=deck, author=owner, note="kept apart", expected_version=2)
    write_steps(
        deck=deck,
        version=2,
        author=owner,
        latest=read_before,
        changes=[[b.short_id, "main", 0, 1]],
        kind=EDIT,
    )
    assert [(v[0], v[3]) for v in versions(deck)] == [(1, False), (2, False), (3, True)]
    assert DeckVersion.objects.get(deck=deck, number=2).note == "kept apart"


def test_a_checkpoint_is_refused_on_a_stale_version_or_a_note_too_long(owner):
    (a,) = main_cards(1)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    with pytest.raises(DeckConflict):
        deck_checkpoint(deck=deck, author=owner, note="", expected_version=1)
    with pytest.raises(InputError, match=f"at most {NOTE_MAX}"):
        deck_checkpoint(deck=deck, author=owner, note="x" * (NOTE_MAX + 1), expected_version=2)
    assert DeckVersion.objects.get(deck=deck, number=2).open


def test_a_folded_versions_summary_reads_in_words():
    changes = [["a", "main", 0, 4], ["b", "main", 1, 4], ["c", "main", 2, 0]]
    steps = [["edit", []]] * 9
    assert summary(changes, steps).words == "+7 cards, \u22122 (9 changes)"
    assert Summary(1, 0, 0, 1, 0, 1).words == "+1 card"
    assert Summary(0, 1, 0, 0, 3, 2).words == "\u22123 cards (2 changes)"
    assert Summary(0, 0, 0, 0, 0, 2).words == "no cards changed (2 changes)"


def test_folds_never_cross_a_keyframe_so_every_kept_version_rebuilds(owner):
    cards = main_cards(3)
    deck = make_deck(owner, cards[:1])
    states = {}
    for n in range(2 * KEYFRAME_EVERY + 3):
        plus(deck, cards[n % 3], owner, step=1 if n % 4 < 2 else -1)
        states[deck.version] = deck_state(deck)
    kept = {v[0] for v in versions(deck)}
    keyframes = set(
        DeckVersion.objects.filter(deck=deck, snapshot__isnull=False).values_list(
            "number", flat=True
        )
    )
    assert keyframes == {1, KEYFRAME_EVERY, 2 * KEYFRAME_EVERY}
    assert len(kept) <= 6
    for number in kept - {1}:
        assert state_at(deck, number) == states[number]


# Undo and redo, from the history


def test_undo_takes_back_one_step_of_the_fold_and_redo_puts_it_back(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    plus(deck, b, owner)
    deck_undo(deck=deck, expected_version=3, author=owner)
    assert deck_state(deck).deck_cards() == {(a.short_id, "main"): 2}
    deck_undo(deck=deck, expected_version=4, author=owner)
    assert deck_state(deck).deck_cards() == {(a.short_id, "main"): 1}
    deck_redo(deck=deck, expected_version=5, author=owner)
    assert deck_state(deck).deck_cards() == {(a.short_id, "main"): 2}
    # Still one version: the undo and redo are steps of the fold.
    (_, changes, steps, _) = versions(deck)[-1]
    assert [k for k, _ in steps] == ["edit", "edit", "undo", "undo", "redo"]
    assert changes == [[a.short_id, "main", 1, 2]]
    assert state_at(deck, deck.version) == deck_state(deck)


def test_undo_reaches_back_past_a_closed_fold_and_a_whole_import(owner):
    a, b, c = main_cards(3)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    deck_checkpoint(deck=deck, author=owner, note="", expected_version=2)
    listed = Intake(tuple(RequestedCard(2, None, x.short_id) for x in (b, c)))
    deck_update(deck=deck, expected_version=2, author=owner, changes={}, intake=listed)
    deck_undo(deck=deck, expected_version=3, author=owner)
    assert deck_state(deck).deck_cards() == {(a.short_id, "main"): 2}
    deck_undo(deck=deck, expected_version=4, author=owner)
    assert deck_state(deck).deck_cards() == {(a.short_id, "main"): 1}
    # The deck's creation is where undo stops.
    with pytest.raises(InputError, match="Nothing to undo"):
        deck_undo(deck=deck, expected_version=5, author=owner)


def test_undo_is_refused_after_someone_elses_change_and_says_who(owner, other):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    plus(deck, b, other)
    with pytest.raises(InputError, match="elsewhere changed this deck after your last change"):
        deck_undo(deck=deck, expected_version=3, author=owner)
    assert deck.version == 3


def test_a_new_edit_after_an_undo_leaves_nothing_to_redo(owner):
    a, b = main_cards(2)
    deck = make_deck(owner, [a])
    plus(deck, a, owner)
    deck_undo(deck=deck, expected_version=2, author=owner)
    plus(deck, b, owner)
    with pytest.raises(InputError, match="Nothing to redo"):
        deck_redo(deck=deck, expected_version=4, author=owner)
