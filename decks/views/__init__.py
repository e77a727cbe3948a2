"""Deck pages, one module per job; each view checks its input's shape, calls one service
and renders."""

from decks.views.accounts import password_reset, signup
from decks.views.builder import (
    deck_checkpoint_view,
    deck_edit,
    deck_edit_card,
    deck_edit_maybe,
    deck_edit_settings,
    deck_fork_view,
    deck_import,
    deck_new,
    deck_redo_view,
    deck_undo_view,
)
from decks.views.building import deck_build_view, deck_missing_file
from decks.views.compare import deck_compare
from decks.views.exports import deck_export_file
from decks.views.finding import public_decks
from decks.views.goldfish import deck_goldfish
from decks.views.history import deck_diff, deck_history, deck_revert_view, version_note_view
from decks.views.jobs import job_detail, job_result
from decks.views.lifecycle import deck_delete_view, deck_restore_view, my_decks
from decks.views.og import deck_og_image
from decks.views.pages import deck_detail, deck_proxies
from decks.views.playtest import deck_playtest
from decks.views.printing import calibration_pdf, printing_profile
from decks.views.proxies import deck_proxies_form, deck_proxies_preview
from decks.views.registration import deck_registration_pdf
from decks.views.tts import deck_tts_file, deck_tts_sheet
from decks.views.variants import deck_variants

__all__ = [
    "calibration_pdf",
    "deck_build_view",
    "deck_checkpoint_view",
    "deck_compare",
    "deck_delete_view",
    "deck_detail",
    "deck_diff",
    "deck_edit",
    "deck_edit_card",
    "deck_edit_maybe",
    "deck_edit_settings",
    "deck_export_file",
    "deck_fork_view",
    "deck_goldfish",
    "deck_history",
    "deck_import",
    "deck_missing_file",
    "deck_new",
    "deck_og_image",
    "deck_playtest",
    "deck_proxies",
    "deck_proxies_form",
    "deck_proxies_preview",
    "deck_redo_view",
    "deck_registration_pdf",
    "deck_restore_view",
    "deck_revert_view",
    "deck_tts_file",
    "deck_tts_sheet",
    "deck_undo_view",
    "deck_variants",
    "job_detail",
    "job_result",
    "my_decks",
    "password_reset",
    "printing_profile",
    "public_decks",
    "signup",
    "version_note_view",
]
