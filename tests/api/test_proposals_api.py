"""Proposals, their review and a card's history through the API: who may do what, what each
refusal names, and that nobody reads what is not theirs."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cardsite.catalogue.models import Card, CardChange
from cardsite.contributions.models import Proposal
from cardsite.contributions.services.proposals import SourceInput, proposal_create
from tests.contributions.conftest import GAME, _user, jpeg

pytestmark = pytest.mark.django_db
PROPOSALS = "/api/v1/proposals/"
RULEBOOK = {"kind": "rulebook", "text": "§4.2, page 9"}


def _signed_in(api, user):
    api.force_authenticate(user)
    return api


def _edit(card, **changes):
    return {"game": GAME, "card": card.short_id, "changes": changes, "source": RULEBOOK}


def test_an_anonymous_proposal_is_a_401(api, card):
    answer = api.post(PROPOSALS, _edit(card, name="Anything"), format="json")
    assert answer.status_code == 401
    assert not Proposal.objects.exists()


def test_a_player_proposes_a_change_and_gets_it_back_open_with_its_diff(api, player, card):
    answer = _signed_in(api, player).post(
        PROPOSALS, _edit(card, name="Renamed Card"), format="json"
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["status"] == "open"
    assert body["kind"] == "edit"
    assert body["proposer"] == "player"
    assert body["diff"] == [
        {"field": "name", "label": "Name", "from": card.name, "to": "Renamed Card"}
    ]
    assert body["source"] == {"kind": "rulebook", "text": "§4.2, page 9", "url": ""}


def test_a_new_card_is_inferred_when_no_card_is_named(api, player, card):
    changes = {"set": card.card_set.code, "number": "999", "name": "Brand New", "type": ""}
    changes.pop("type")
    answer = _signed_in(api, player).post(
        PROPOSALS,
        {"game": GAME, "card": None, "changes": changes, "source": "https://example.com/cards"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["kind"] == "card"
    assert answer.json()["source"]["kind"] == "publisher"


def test_a_ruling_and_an_erratum_and_a_set_can_each_be_proposed(api, player, card):
    client = _signed_in(api, player)
    for kind, changes in [
        ("ruling", {"rulings": {"text": "It counts as played."}}),
        ("erratum", {"errata": {"text": "Read 2 as 3."}}),
    ]:
        body = {**_edit(card, **changes), "kind": kind}
        answer = client.post(PROPOSALS, body, format="json")
        assert answer.status_code == 201, (kind, answer.json())
    answer = client.post(
        PROPOSALS,
        {
            "game": GAME,
            "kind": "set",
            "changes": {"code": "CFC-NEW", "name": "A New Set"},
            "source": "The box of the new set",
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["source"]["kind"] == "rulebook"


def test_an_image_is_proposed_as_multipart_and_its_photo_url_is_private(api, player, other, card):
    answer = _signed_in(api, player).post(
        PROPOSALS,
        {
            "game": GAME,
            "kind": "image",
            "card": card.short_id,
            "source": '{"kind": "printed_card"}',
            "photo": jpeg(),
        },
        format="multipart",
    )
    assert answer.status_code == 201, answer.json()
    photo = answer.json()["photo"]
    assert photo == reverse("contributions:photo", args=[answer.json()["id"]])
    api.force_authenticate(None)
    api.force_login(other)
    assert api.get(photo).status_code in (403, 404)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"no_such_field": "1"}, "no_such_field"),
        ({"keywords": [f"kw{i}" for i in range(10_000)]}, "keywords"),
    ],
)
def test_an_invalid_value_is_a_400_naming_its_field(api, player, card, changes, field):
    answer = _signed_in(api, player).post(PROPOSALS, _edit(card, **changes), format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"]["changes"]
    assert not Proposal.objects.exists()


def test_a_stat_out_of_its_range_is_refused_naming_the_stat(api, player, card):
    stat = next(s for s in card.game.engine.stats if s.maximum is not None or s.minimum is not None)
    beyond = stat.maximum + 1 if stat.maximum is not None else stat.minimum - 1
    answer = _signed_in(api, player).post(
        PROPOSALS, _edit(card, **{stat.key: str(beyond)}), format="json"
    )
    assert answer.status_code == 400
    assert stat.key in answer.json()["errors"]["changes"]


def test_html_in_text_is_refused(api, player, card):
    answer = _signed_in(api, player).post(
        PROPOSALS, _edit(card, text="<script>alert(1)</script>"), format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert "text" in answer.json()["errors"]["changes"]


def test_a_proposal_without_a_source_is_refused_naming_the_source(api, player, card):
    body = _edit(card, name="Sourceless")
    del body["source"]
    answer = _signed_in(api, player).post(PROPOSALS, body, format="json")
    assert answer.status_code == 400
    assert "source" in answer.json()["errors"]
    body["source"] = {"kind": "publisher", "url": "not an address"}
    answer = api.post(PROPOSALS, body, format="json")
    assert answer.status_code == 400
    assert "source" in answer.json()["errors"]


def test_a_50_mb_image_is_a_413_and_nothing_is_stored(api, player, card):
    answer = _signed_in(api, player).post(
        PROPOSALS,
        {
            "game": GAME,
            "kind": "image",
            "card": card.short_id,
            "source": '{"kind": "printed_card"}',
            "photo": SimpleUploadedFile("big.jpg", b"\xff" * (50 * 1024 * 1024), "image/jpeg"),
        },
        format="multipart",
    )
    assert answer.status_code == 413
    assert not Proposal.objects.exists()


def test_a_young_account_is_a_403(api, card):
    from django.contrib.auth.models import User

    young = User.objects.create_user("young", password="correct-horse-42")
    answer = _signed_in(api, young).post(PROPOSALS, _edit(card, name="Hasty"), format="json")
    assert answer.status_code == 403
    assert not Proposal.objects.exists()


def test_the_51st_open_proposal_is_a_429_naming_the_limit(api, player, card, game):
    for i in range(50):
        proposal_create(
            proposer=player,
            game=game,
            kind="edit",
            card=card,
            changes={"name": f"Name {i}"},
            source=SourceInput(kind="rulebook", text="p. 1"),
        )
    answer = _signed_in(api, player).post(PROPOSALS, _edit(card, name="One more"), format="json")
    assert answer.status_code == 429
    assert answer.json()["code"] == "open_proposals"
    assert Proposal.objects.count() == 50


def test_a_flood_of_proposals_is_throttled_naming_the_limit(api, player, card, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "proposals": "2/hour"},
    }
    client = _signed_in(api, player)
    codes = [
        client.post(PROPOSALS, _edit(card, name=f"Flood {i}"), format="json") for i in range(3)
    ]
    assert [a.status_code for a in codes] == [201, 201, 429]
    assert codes[2].json()["code"] == "throttled"
    assert "2 proposals an hour" in codes[2].json()["detail"]
    assert Proposal.objects.count() == 2


def test_another_user_sees_neither_the_proposal_nor_it_in_lists(api, proposal, other):
    client = _signed_in(api, other)
    assert client.get(f"{PROPOSALS}{proposal.pk}/").status_code == 404
    assert client.get(PROPOSALS).json()["results"] == []


def test_the_proposer_and_a_curator_see_it(api, proposal, player, curator):
    for user in (player, curator):
        client = _signed_in(api, user)
        assert client.get(f"{PROPOSALS}{proposal.pk}/").status_code == 200
        listed = client.get(PROPOSALS, {"status": "open", "game": GAME}).json()["results"]
        assert [p["id"] for p in listed] == [proposal.pk]
    mine = _signed_in(api, curator).get(PROPOSALS, {"mine": "true"}).json()["results"]
    assert mine == []


def test_an_unknown_filter_value_is_a_400_naming_it(api, player):
    answer = _signed_in(api, player).get(PROPOSALS, {"status": "pending"})
    assert answer.status_code == 400
    assert "status" in answer.json()["errors"]


def test_a_non_curator_or_the_proposer_cannot_approve(api, proposal, player, other):
    assert _signed_in(api, player).post(f"{PROPOSALS}{proposal.pk}/approve/", {}).status_code == 403
    assert _signed_in(api, other).post(f"{PROPOSALS}{proposal.pk}/approve/", {}).status_code == 404
    proposal.refresh_from_db()
    assert proposal.status == "open"


def test_a_curator_approves_with_edits_and_the_history_records_it(api, proposal, curator, card):
    answer = _signed_in(api, curator).post(
        f"{PROPOSALS}{proposal.pk}/approve/", {"changes": {"name": "Edited Name"}}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "approved"
    assert answer.json()["reviewer"] == "curator"
    card.refresh_from_db()
    assert card.name == "Edited Name"
    history = api.get(f"/api/v1/cards/{card.short_id}/history/").json()
    last = history[-1]
    assert (last["field"], last["to"], last["author"], last["reviewer"], last["proposal"]) == (
        "name",
        "Edited Name",
        "player",
        "curator",
        proposal.pk,
    )
    assert last["source"]["kind"] == "printed_card"
    again = api.post(f"{PROPOSALS}{proposal.pk}/approve/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "closed")


def test_a_stale_proposal_is_a_409_naming_its_fields_until_resolved(
    api, proposal, curator, card, game
):
    newer = proposal_create(
        proposer=_user("third"),
        game=game,
        kind="edit",
        card=card,
        changes={"name": "Newer Name"},
        source=SourceInput(kind="rulebook", text="p. 2"),
    )
    client = _signed_in(api, curator)
    assert client.post(f"{PROPOSALS}{newer.pk}/approve/", {}).status_code == 200
    answer = client.post(f"{PROPOSALS}{proposal.pk}/approve/", {}, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "stale"
    assert body["fields"] == [
        {
            "field": "name",
            "label": "Name",
            "then": proposal.base["name"],
            "now": "Newer Name",
            "proposed": proposal.changes["name"],
        }
    ]
    card.refresh_from_db()
    assert card.name == "Newer Name"
    answer = client.post(
        f"{PROPOSALS}{proposal.pk}/approve/", {"resolve": {"name": "proposed"}}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    card.refresh_from_db()
    assert card.name == proposal.changes["name"]


def test_a_curator_rejects_with_a_reason_and_history_shows_nothing(api, proposal, curator, card):
    client = _signed_in(api, curator)
    assert client.post(f"{PROPOSALS}{proposal.pk}/reject/", {}, format="json").status_code == 400
    answer = client.post(
        f"{PROPOSALS}{proposal.pk}/reject/", {"reason": "The photo shows another card."}
    )
    assert answer.status_code == 200
    assert answer.json()["reason"] == "The photo shows another card."
    api.force_authenticate(None)
    history = api.get(f"/api/v1/cards/{card.short_id}/history/").json()
    assert not any(c["proposal"] == proposal.pk for c in history)


def test_history_is_oldest_first_and_a_revert_is_itself_a_change(api, proposal, curator, card):
    original = card.name
    client = _signed_in(api, curator)
    client.post(f"{PROPOSALS}{proposal.pk}/approve/", {}, format="json")
    change = CardChange.objects.filter(card=card, field="name").latest("id")
    url = f"/api/v1/cards/{card.short_id}/history/{change.pk}/revert/"
    answer = client.post(url)
    assert answer.status_code == 201, answer.json()
    assert answer.json()[0]["reverts"] == change.pk
    card.refresh_from_db()
    assert card.name == original
    history = api.get(f"/api/v1/cards/{card.short_id}/history/").json()
    assert [c["id"] for c in history] == sorted(c["id"] for c in history)
    assert history[-1]["from"] == proposal.changes["name"]
    assert history[-1]["to"] == original


def test_only_a_curator_reverts(api, proposal, curator, player, card):
    _signed_in(api, curator).post(f"{PROPOSALS}{proposal.pk}/approve/", {}, format="json")
    change = CardChange.objects.filter(card=card, field="name").latest("id")
    url = f"/api/v1/cards/{card.short_id}/history/{change.pk}/revert/"
    assert _signed_in(api, player).post(url).status_code == 403


def test_a_community_card_is_sourced_until_a_second_curator_confirms(api, player, curator, card):
    created = _signed_in(api, player).post(
        PROPOSALS,
        {
            "game": GAME,
            "changes": {"set": card.card_set.code, "number": "777", "name": "Players' Card"},
            "source": RULEBOOK,
        },
        format="json",
    )
    pk = created.json()["id"]
    _signed_in(api, curator).post(f"{PROPOSALS}{pk}/approve/", {}, format="json")
    added = Card.objects.get(name="Players' Card")
    record = api.get(f"/api/v1/cards/{added.short_id}/").json()
    assert record["community"] == "sourced"
    assert record["sample"] is False
    assert api.post(f"/api/v1/cards/{added.short_id}/confirm/").status_code == 400
    second = _user("second")
    from cardsite.contributions.models import Curator

    Curator.objects.create(user=second, game=card.game)
    answer = _signed_in(api, second).post(f"/api/v1/cards/{added.short_id}/confirm/")
    assert answer.status_code == 200
    assert answer.json()["community"] == "confirmed"


def test_a_refused_revert_names_the_change_and_a_refused_confirm_the_card(api, curator, card):
    from django.utils import timezone

    image = CardChange.objects.create(card=card, field="art", after="art/x.png", at=timezone.now())
    client = _signed_in(api, curator)
    answer = client.post(f"/api/v1/cards/{card.short_id}/history/{image.pk}/revert/")
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["change"]
    answer = client.post(f"/api/v1/cards/{card.short_id}/confirm/")
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["card"]
