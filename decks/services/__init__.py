"""The deck pipeline: every deck is read (intake), resolved against a snapshot of its game's
cards (resolve), checked by its engine (validate), written (write), played (play), charted
(charts) and its history kept (history, versions, variants) here, whether it came from
the API, a page, a background job or the command line."""

from cardsite.cardlists.snapshot import GameSnapshot, SnapCard, game_snapshot
from decks.services.charts import ChartSeries, DeckChart, deck_charts, goldfish_charts
from decks.services.intake import (
    Intake,
    RequestedCard,
    intake_cards,
    intake_cod,
    intake_code,
    intake_deck,
    intake_pasted,
    intake_posted,
    intake_text,
    uploaded_cod,
)
from decks.services.lifecycle import deck_delete, deck_restore, decks_purge
from decks.services.listing import Standing, standings
from decks.services.play import (
    SampleHand,
    format_policy,
    goldfish_check,
    goldfish_run,
    goldfish_work,
    hand_odds,
    policy_from_form,
    sample_hand,
)
from decks.services.printing import print_profile_set
from decks.services.resolve import (
    UNSAVABLE,
    DeckContentError,
    ResolvedDeck,
    ResolvedEntry,
    resolve,
)
from decks.services.summary import SummaryRow, SummaryTable, summary_table
from decks.services.validate import CheckResult, check, format_for, legality, problem_json
from decks.services.variants import deck_branch, deck_fork
from decks.services.versions import (
    deck_checkpoint,
    deck_move_card,
    deck_redo,
    deck_revert,
    deck_undo,
    version_annotate,
)
from decks.services.write import (
    Current,
    DeckConflict,
    deck_card_step,
    deck_create,
    deck_set_quantity,
    deck_update,
)

__all__ = [
    "UNSAVABLE",
    "ChartSeries",
    "CheckResult",
    "Current",
    "DeckChart",
    "DeckConflict",
    "DeckContentError",
    "GameSnapshot",
    "Intake",
    "RequestedCard",
    "ResolvedDeck",
    "ResolvedEntry",
    "SampleHand",
    "SnapCard",
    "Standing",
    "SummaryRow",
    "SummaryTable",
    "check",
    "deck_branch",
    "deck_card_step",
    "deck_charts",
    "deck_checkpoint",
    "deck_create",
    "deck_delete",
    "deck_fork",
    "deck_move_card",
    "deck_redo",
    "deck_restore",
    "deck_revert",
    "deck_set_quantity",
    "deck_undo",
    "deck_update",
    "decks_purge",
    "format_for",
    "format_policy",
    "game_snapshot",
    "goldfish_charts",
    "goldfish_check",
    "goldfish_run",
    "goldfish_work",
    "hand_odds",
    "intake_cards",
    "intake_cod",
    "intake_code",
    "intake_deck",
    "intake_pasted",
    "intake_posted",
    "intake_text",
    "legality",
    "policy_from_form",
    "print_profile_set",
    "problem_json",
    "resolve",
    "sample_hand",
    "standings",
    "summary_table",
    "uploaded_cod",
    "version_annotate",
]
