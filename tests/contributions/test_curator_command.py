"""`manage.py curator add|remove|list`: how an admin makes a game's curators from a shell."""

import pytest
from django.core.management import CommandError, call_command

from cardsite.contributions.models import Curator
from tests.contributions.conftest import _user

pytestmark = pytest.mark.django_db


def test_a_curator_is_added_listed_and_removed(game, capsys):
    user = _user("keeper")
    call_command("curator", "add", "keeper", "--game", game.slug)
    assert Curator.objects.filter(user=user, game=game).exists()
    call_command("curator", "list", "--game", game.slug)
    assert f"{game.slug}\tkeeper" in capsys.readouterr().out
    call_command("curator", "remove", "keeper", "--game", game.slug)
    assert not Curator.objects.filter(user=user).exists()


def test_adding_twice_leaves_one_curatorship(game):
    _user("keeper")
    call_command("curator", "add", "keeper", "--game", game.slug)
    call_command("curator", "add", "keeper", "--game", game.slug)
    assert Curator.objects.count() == 1


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["add", "nobody", "--game", "GAME"], "No user 'nobody'"),
        (["add", "keeper", "--game", "no-such-game"], "No game 'no-such-game'"),
        (["remove", "keeper", "--game", "GAME"], "does not curate"),
    ],
)
def test_an_unknown_user_or_game_or_curatorship_is_named(game, args, named):
    _user("keeper")
    args = [game.slug if a == "GAME" else a for a in args]
    with pytest.raises(CommandError, match=named):
        call_command("curator", *args)
