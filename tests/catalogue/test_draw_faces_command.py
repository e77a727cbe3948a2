"""manage.py draw_faces: the faces a page of many would otherwise draw under the visitor's limit."""

from io import StringIO

import pytest
from django.core.management import call_command

from cardsite.catalogue.faces.cache import face_path
from cardsite.catalogue.faces.data import face_data
from cardsite.catalogue.models import Card

pytestmark = pytest.mark.django_db

GAME = "conquest-for-the-capital"


def _draw(*args: str) -> str:
    out = StringIO()
    call_command("draw_faces", *args, stdout=out)
    return out.getvalue()


def test_draw_faces_draws_the_faces_not_drawn_yet_and_a_second_run_draws_none():
    assert _draw(GAME, "--limit", "3") == "3 card faces drawn.\n"
    first = list(Card.objects.filter(game__slug=GAME).order_by("pk")[:3])
    assert all(face_path(face_data(card)).exists() for card in first)

    assert _draw(GAME, "--limit", "3") == "3 card faces drawn.\n"  # the next three
    fourth_to_sixth = Card.objects.filter(game__slug=GAME).order_by("pk")[3:6]
    assert all(face_path(face_data(card)).exists() for card in fourth_to_sixth)


def test_draw_faces_leaves_other_games_alone():
    _draw(GAME, "--limit", "1")
    others = Card.objects.exclude(game__slug=GAME)
    assert not any(face_path(face_data(card)).exists() for card in others[:20])


def test_draw_faces_of_an_unknown_game_draws_none():
    assert _draw("no-such-game") == "0 card faces drawn.\n"
