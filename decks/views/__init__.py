"""Deck pages, one module per job; each view checks its input's shape, calls one service
and renders."""

from decks.views.accounts import password_reset, signup
from decks.views.builder import (
    deck_delete_view,
    deck_edit,
    deck_edit_card,
    deck_edit_settings,
    deck_fork_view,
    deck_import,
    deck_new,
)
from decks.views.finding import public_decks
from decks.views.goldfish import deck_goldfish
from decks.views.jobs import job_detail, job_result
from decks.views.pages import deck_detail, deck_proxies, my_decks

__all__ = [
    "deck_delete_view",
    "deck_detail",
    "deck_edit",
    "deck_edit_card",
    "deck_edit_settings",
    "deck_fork_view",
    "deck_goldfish",
    "deck_import",
    "deck_new",
    "deck_proxies",
    "job_detail",
    "job_result",
    "my_decks",
    "password_reset",
    "public_decks",
    "signup",
]
