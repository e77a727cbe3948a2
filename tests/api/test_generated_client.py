"""A Python client generated from the schema by openapi-python-client (tests/api/conftest.py)
imports every module, and works against a live server as a user's script would: it lists
cards, saves a deck with a name, validates it, reads it back and downloads its proxies' PDF,
signed in by its AuthenticatedClient (which sends `Authorization: Bearer <token>`)."""

import importlib
import pkgutil

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from tests.browser.conftest import delete_committed

USERNAME = "generated-client"


def test_the_generator_drops_nothing_from_the_schema(generated_client):
    # A schema it cannot read is skipped with a warning, and a client generated all the same.
    assert "Warning" not in generated_client, generated_client


def test_every_module_of_a_generated_client_imports(generated_client):
    package = importlib.import_module("cardsite_api_client")
    modules = [m.name for m in pkgutil.walk_packages(package.__path__, "cardsite_api_client.")]
    for name in modules:
        importlib.import_module(name)
    assert len(modules) > 200


@pytest.fixture
def token(django_db_blocker):
    # Committed, so the live server's threads see it; removed afterwards with its decks.
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(username=USERNAME))
        user = User.objects.create_user(USERNAME, password="a-Long-client-pass-3")
        key = Token.objects.create(user=user).key
    yield key
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def test_a_generated_client_lists_cards_saves_validates_reads_and_prints_a_deck(
    generated_client, _server, token
):
    from cardsite_api_client import AuthenticatedClient
    from cardsite_api_client.api.cards import cards_list
    from cardsite_api_client.api.decks import (
        decks_create,
        decks_proxies_pdf_retrieve,
        decks_retrieve,
        decks_validate_create,
    )
    from cardsite_api_client.models import (
        CardsListGame,
        Deck,
        DeckInputRequest,
        DeckWriteRequest,
        FormatEnum,
        GameEnum,
        PaginatedCardList,
        RequestedCardRequest,
        VisibilityEnum,
    )
    from cardsite_api_client.types import File

    with AuthenticatedClient(
        base_url=_server, token=token, raise_on_unexpected_status=True, timeout=60
    ) as client:
        assert client.prefix == "Bearer"
        listed = cards_list.sync(
            client=client, game=CardsListGame.CONQUEST_FOR_THE_CAPITAL, q="f:dwarves"
        )
        assert isinstance(listed, PaginatedCardList)
        assert listed.count > 0
        cards = [RequestedCardRequest(id=card.id) for card in listed.results[:20]]

        body = DeckWriteRequest(
            game=GameEnum.CONQUEST_FOR_THE_CAPITAL,
            format_=FormatEnum.FACTION_DECK,
            name="Dwarves by a generated client",
            visibility=VisibilityEnum.UNLISTED,
            cards=cards,
        )
        created = decks_create.sync(client=client, body=body)
        assert isinstance(created, Deck), created
        assert created.name == "Dwarves by a generated client"
        assert created.visibility == "unlisted"

        checked = decks_validate_create.sync(
            client=client,
            body=DeckInputRequest(
                game=GameEnum.CONQUEST_FOR_THE_CAPITAL,
                format_=FormatEnum.FACTION_DECK,
                cards=cards,
            ),
        )
        assert checked.legal == created.legal
        assert [p.code for p in checked.problems] == [p.code for p in created.problems]

        read = decks_retrieve.sync(client=client, id=created.id)
        assert isinstance(read, Deck)
        assert (read.id, read.name, read.version) == (created.id, created.name, 1)
        assert read.parent is None

        sheet = decks_proxies_pdf_retrieve.sync(client=client, id=created.id)
        assert isinstance(sheet, File)
        assert sheet.payload.read(5) == b"%PDF-"
