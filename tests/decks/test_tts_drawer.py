"""The faces drawer (cardsite/catalogue/faces/ahead.py) as a save's sheets use it: it never
opens a database connection of its own."""

import threading

import pytest
from django.contrib.auth.models import User
from django.db.backends.signals import connection_created

from cardsite.catalogue.faces import ahead
from decks.tts.plan import tts_plan
from tests.decks.tts_support import game_deck, save_of


@pytest.fixture
def owner(db):
    return User.objects.create_user("drawer-owner", password="x-Long-pass-9")


@pytest.mark.django_db
def test_the_drawer_never_opens_a_database_connection(client, owner):
    # The drawer's jobs get every card's data in the request (draw_ahead, _sheet_job); a
    # connection opened in its thread would be one per process, left open.
    opened = []

    def record(sender, connection, **kwargs):
        opened.append(threading.current_thread().name)

    connection_created.connect(record)
    try:
        deck = game_deck(owner, "conquest-for-the-capital", per_zone=3)
        save_of(client, deck)
    finally:
        connection_created.disconnect(record)
        ahead.settle()
    assert len(tts_plan(deck).sheets) > 1
    assert not [name for name in opened if name.startswith("cardsite-faces")], opened
