import datetime as dt
import io

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from cardsite.catalogue.models import Card, Game
from cardsite.contributions.models import Curator, Proposal
from cardsite.contributions.services.proposals import SourceInput, proposal_create

GAME = "conquest-for-the-capital"
OTHER_GAME = "conquest-of-orion"


def _user(name: str, **extra) -> User:
    user = User.objects.create_user(name, password="correct-horse-42", **extra)
    # Proposing needs an account an hour old.
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - dt.timedelta(hours=2))
    user.refresh_from_db()
    return user


@pytest.fixture
def game(db) -> Game:
    return Game.objects.get(slug=GAME)


@pytest.fixture
def card(game) -> Card:
    return Card.objects.filter(game=game, card_set__code="CFC-RB").order_by("number_sort").first()


@pytest.fixture
def player(db) -> User:
    return _user("player", email="player@example.com")


@pytest.fixture
def other(db) -> User:
    return _user("other")


@pytest.fixture
def curator(game) -> User:
    user = _user("curator")
    Curator.objects.create(user=user, game=game)
    return user


@pytest.fixture
def foreign_curator(db) -> User:
    user = _user("foreign")
    Curator.objects.create(user=user, game=Game.objects.get(slug=OTHER_GAME))
    return user


def jpeg(size=(60, 84)) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", size, (180, 40, 40)).save(out, "JPEG")
    return SimpleUploadedFile("card.jpg", out.getvalue(), content_type="image/jpeg")


@pytest.fixture
def proposal(player, game, card) -> Proposal:
    """An open edit of the card's name, with a photo of the printed card as its source."""
    return proposal_create(
        proposer=player,
        game=game,
        kind="edit",
        card=card,
        changes={"name": card.name + " Prime"},
        source=SourceInput(kind="printed_card"),
        photo=jpeg(),
    )
