import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cardsite.catalogue.documents import write_csv
from cardsite.catalogue.selectors import card_queryset, card_record
from cardsite.contributions.models import Proposal
from tests.contributions.conftest import _user

URL = "/api/v1/proposals/file/"
GAME = "conquest-for-the-capital"


@pytest.fixture
def game(db):
    from cardsite.catalogue.models import Game

    return Game.objects.get(slug=GAME)


@pytest.fixture
def curator(game):
    from cardsite.contributions.models import Curator

    user = _user("curator")
    Curator.objects.create(user=user, game=game)
    return user


def _csv(game, rename: str = "") -> SimpleUploadedFile:
    cards = card_queryset().filter(game=game, card_set__code="CFC-RB").order_by("number_sort")
    records = [card_record(c) for c in cards]
    records.append({**records[0], "number": "777", "name": rename or "Api Card", "short_id": ""})
    text = write_csv(records, [s.key for s in game.engine.stats])
    return SimpleUploadedFile("cards.csv", text.encode(), content_type="text/csv")


def _post(api, game, **extra):
    data = {
        "game": GAME,
        "file": _csv(game),
        "source": json.dumps({"kind": "publisher", "url": "https://example.com/cards"}),
        **extra,
    }
    return api.post(URL, data, format="multipart")


def test_a_curator_proposes_a_card_file_and_is_answered_with_its_counts(api, game, curator):
    api.force_authenticate(curator)
    response = _post(api, game)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["status"], body["kind"]) == ("open", "bulk")
    assert body["summary"]["new"] >= 1
    assert Proposal.objects.get(pk=body["id"]).bulk_file.name.startswith("proposals/files/")


def test_anybody_not_curating_the_game_is_refused_and_nothing_is_stored(api, game, db):
    assert _post(api, game).status_code == 401
    api.force_authenticate(_user("player"))
    assert _post(api, game).status_code == 403
    assert not Proposal.objects.exists()


def test_a_bad_file_is_a_400_naming_its_line_and_field(api, game, curator):
    api.force_authenticate(curator)
    bad = SimpleUploadedFile(
        "cards.csv", b"set,number,name,type\nNOPE,1,Card,no-such-type\n", content_type="text/csv"
    )
    response = _post(api, game, file=bad)
    assert response.status_code == 400
    assert "line 2" in response.json()["errors"]["file"][0]
    assert not Proposal.objects.exists()


def test_a_card_file_needs_a_source(api, game, curator):
    api.force_authenticate(curator)
    response = _post(api, game, source=json.dumps({"kind": "hearsay"}))
    assert response.status_code == 400
    assert "source" in response.json()["errors"]
