"""The proposal pages, read and written by each kind of reader."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from cardsite.catalogue.models import Card, CardChange
from cardsite.contributions.models import Notification, Proposal

from .conftest import GAME, jpeg

pytestmark = pytest.mark.django_db


def propose_url(kind: str, card: Card | None = None) -> str:
    url = reverse("contributions:propose", args=[GAME]) + f"?kind={kind}"
    return url + (f"&card={card.short_id}" if card else "")


def rulebook(**fields: str) -> dict[str, str]:
    return {"source_kind": "rulebook", "source_text": "page 9", **fields}


def test_signed_out_visitors_are_sent_to_log_in_to_propose(client, card):
    response = client.get(propose_url("edit", card))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_the_edit_form_is_built_from_the_games_schema_and_prefilled(client, player, card):
    client.force_login(player)
    page = client.get(propose_url("edit", card)).content.decode()
    assert f'name="c-name" value="{card.name}"' in page
    assert 'name="c-attack"' in page and 'name="c-timing"' in page
    assert 'name="source_kind" value="printed_card"' in page
    assert "E-mail me the outcome" in page


def test_a_player_proposes_an_edit_and_only_changed_fields_are_sent(client, player, card):
    client.force_login(player)
    form = client.get(propose_url("edit", card)).context["fields"]
    data = {f.input_name: f.value for f in form} | rulebook()
    data["c-name"] = "Renamed Card"
    response = client.post(propose_url("edit", card), data)
    proposal = Proposal.objects.get(proposer=player)
    assert response.status_code == 302
    assert response["Location"] == reverse("contributions:detail", args=[proposal.pk])
    assert proposal.changes == {"name": "Renamed Card"}
    assert proposal.base == {"name": card.name}


def test_a_stat_out_of_range_is_refused_naming_the_field_and_nothing_is_stored(
    client, player, card
):
    client.force_login(player)
    response = client.post(propose_url("edit", card), rulebook(**{"c-stars": "99"}))
    assert response.status_code == 400
    assert 'id="c-stars-error"' in response.content.decode()
    assert not Proposal.objects.exists()


def test_html_in_the_rules_text_is_refused_naming_the_field(client, player, card):
    client.force_login(player)
    response = client.post(propose_url("edit", card), rulebook(**{"c-text": "<b>hi</b>"}))
    assert response.status_code == 400
    assert 'id="c-text-error"' in response.content.decode()
    assert not Proposal.objects.exists()


def test_a_proposal_without_a_source_is_refused(client, player, card):
    client.force_login(player)
    response = client.post(propose_url("edit", card), {"c-name": "No Source"})
    assert response.status_code == 400
    assert "Source: every proposal needs a source" in response.content.decode()
    assert not Proposal.objects.exists()


def test_an_account_younger_than_an_hour_is_refused_with_a_403_saying_so(client, card):
    newcomer = User.objects.create_user("newcomer", password="x-long-password-1")
    client.force_login(newcomer)
    response = client.post(propose_url("edit", card), rulebook(**{"c-name": "Too Soon"}))
    assert response.status_code == 403
    assert "an hour old" in response.content.decode()
    assert not Proposal.objects.exists()


def test_the_fifty_first_open_proposal_is_refused_naming_the_limit(client, player, game, card):
    Proposal.objects.bulk_create(
        Proposal(game=game, card=card, kind="edit", proposer=player, source_kind="rulebook")
        for _ in range(50)
    )
    client.force_login(player)
    response = client.post(propose_url("edit", card), rulebook(**{"c-name": "Fifty One"}))
    assert response.status_code == 429
    assert "50 open proposals" in response.content.decode()
    assert Proposal.objects.count() == 50


def test_a_flood_of_proposals_is_throttled_naming_the_limit(client, player, card, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "proposals": "2/hour",
        },
    }
    client.force_login(player)
    for n in range(2):
        client.post(propose_url("edit", card), rulebook(**{"c-name": f"Flood {n}"}))
    response = client.post(propose_url("edit", card), rulebook(**{"c-name": "Flood 3"}))
    assert response.status_code == 429
    assert Proposal.objects.count() == 2


def test_a_new_card_with_a_printed_card_photo_is_stored_with_its_photo(client, player, game):
    client.force_login(player)
    data = {"c-set": "CFC-RB", "c-number": "901", "c-name": "From My Hand"}
    data |= {"source_kind": "printed_card", "photo": jpeg()}
    response = client.post(propose_url("card"), data)
    assert response.status_code == 302
    proposal = Proposal.objects.get()
    assert proposal.kind == "card" and proposal.photo
    assert proposal.changes == {"set": "CFC-RB", "number": "901", "name": "From My Hand"}


@pytest.mark.parametrize(
    "reader, status",
    [("player", 200), ("curator", 200), ("other", 404), ("foreign_curator", 404)],
)
def test_a_proposal_and_its_photo_are_seen_only_by_its_proposer_and_curators(
    client, request, proposal, reader, status
):
    client.force_login(request.getfixturevalue(reader))
    page = client.get(reverse("contributions:detail", args=[proposal.pk]))
    photo = client.get(reverse("contributions:photo", args=[proposal.pk]))
    assert (page.status_code, photo.status_code) == (status, status)
    if status == 200:
        assert "private" in photo["Cache-Control"]


def test_anonymous_visitors_see_no_proposal(client, proposal):
    response = client.get(reverse("contributions:detail", args=[proposal.pk]))
    assert response.status_code == 302
    assert client.get(reverse("contributions:photo", args=[proposal.pk])).status_code == 302


def test_the_proposal_page_shows_the_diff_from_and_to(client, player, proposal, card):
    client.force_login(player)
    page = client.get(reverse("contributions:detail", args=[proposal.pk])).content.decode()
    assert f"<del>{card.name}</del>" in page
    assert f"<ins>{card.name} Prime</ins>" in page
    assert 'data-action="approve"' not in page


def test_other_users_see_no_proposal_in_their_lists(client, other, proposal):
    client.force_login(other)
    assert (
        proposal.changes["name"] not in client.get(reverse("contributions:mine")).content.decode()
    )
    assert client.get(reverse("contributions:queue")).status_code == 403


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_a_non_curators_review_is_refused_and_writes_nothing(client, request, proposal, action):
    client.force_login(request.getfixturevalue("foreign_curator"))
    response = client.post(reverse(f"contributions:{action}", args=[proposal.pk]), {"reason": "x"})
    assert response.status_code == 404
    proposal.refresh_from_db()
    assert proposal.status == "open"
    assert not CardChange.objects.filter(proposal=proposal.pk).exists()


def test_a_curator_cannot_review_their_own_proposal(client, curator, game, card):
    from cardsite.contributions.services.proposals import SourceInput, proposal_create

    own = proposal_create(
        proposer=curator,
        game=game,
        kind="edit",
        card=card,
        changes={"name": "Mine"},
        source=SourceInput(kind="rulebook", text="p. 2"),
    )
    client.force_login(curator)
    response = client.post(reverse("contributions:approve", args=[own.pk]))
    assert response.status_code == 403
    own.refresh_from_db()
    assert own.status == "open"


def test_a_curator_approves_and_the_card_and_the_proposers_notice_change(
    client, curator, player, proposal, card, django_capture_on_commit_callbacks
):
    client.force_login(curator)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("contributions:approve", args=[proposal.pk]))
    assert response.status_code == 302
    card.refresh_from_db()
    assert card.name.endswith(" Prime")
    assert Notification.objects.filter(user=player, read_at__isnull=True).count() == 1
    assert len(mail.outbox) == 0  # the proposer did not ask for an e-mail


def test_approving_twice_is_a_409(client, curator, proposal):
    client.force_login(curator)
    client.post(reverse("contributions:approve", args=[proposal.pk]))
    response = client.post(reverse("contributions:approve", args=[proposal.pk]))
    assert response.status_code == 409


def test_a_curator_approves_with_edits(client, curator, proposal, card):
    client.force_login(curator)
    client.post(reverse("contributions:approve", args=[proposal.pk]), {"c-name": "Edited Name"})
    card.refresh_from_db()
    proposal.refresh_from_db()
    assert card.name == "Edited Name"
    assert proposal.applied == {"name": "Edited Name"}


def test_a_stale_approval_asks_then_now_proposed_and_takes_the_choice(
    client, curator, proposal, card
):
    Card.objects.filter(pk=card.pk).update(name="Changed Meanwhile")
    client.force_login(curator)
    url = reverse("contributions:approve", args=[proposal.pk])
    response = client.post(url)
    page = response.content.decode()
    assert response.status_code == 409
    assert "Changed Meanwhile" in page and 'name="resolve-name"' in page
    client.post(url, {"resolve-name": "current"})
    card.refresh_from_db()
    assert card.name == "Changed Meanwhile"
    proposal.refresh_from_db()
    assert proposal.status == "approved"


def test_a_rejection_needs_a_reason_and_tells_the_proposer_by_mail_when_asked(
    client, curator, proposal, django_capture_on_commit_callbacks
):
    Proposal.objects.filter(pk=proposal.pk).update(email_me=True)
    client.force_login(curator)
    url = reverse("contributions:reject", args=[proposal.pk])
    assert client.post(url, {"reason": " "}).status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"reason": "The photo shows another card."})
    assert response.status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == "rejected"
    assert len(mail.outbox) == 1
    assert "another card" in mail.outbox[0].body


def test_the_queue_lists_open_proposals_for_curators_only(client, curator, proposal):
    client.force_login(curator)
    page = client.get(reverse("contributions:queue")).content.decode()
    assert f'href="{reverse("contributions:detail", args=[proposal.pk])}"' in page
    assert "Keyboard" in page
    later = client.get(reverse("contributions:queue") + "?days=3").content.decode()
    assert "Nothing is waiting" in later


def test_the_queue_pages_fifty_at_a_time(client, curator, player, game, card):
    Proposal.objects.bulk_create(
        Proposal(game=game, card=card, kind="edit", proposer=player, source_kind="rulebook")
        for _ in range(51)
    )
    client.force_login(curator)
    page = client.get(reverse("contributions:queue")).content.decode()
    assert 'rel="next"' in page
    assert 'rel="prev"' in client.get(reverse("contributions:queue") + "?page=2").content.decode()


def test_the_header_counts_notices_and_the_queue(client, curator, player, proposal):
    client.force_login(curator)
    assert "Review (1)" in client.get(reverse("contributions:mine")).content.decode()
    client.post(reverse("contributions:approve", args=[proposal.pk]))
    client.force_login(player)
    assert "Notifications (1)" in client.get(reverse("contributions:mine")).content.decode()
    page = client.get(reverse("contributions:notifications")).content.decode()
    assert "was approved" in page
    assert "Notifications (1)" not in client.get(reverse("contributions:mine")).content.decode()


def test_the_header_costs_a_signed_in_user_one_query(client, player, django_assert_max_num_queries):
    from django.template import RequestContext, Template
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = player
    template = Template("{{ contribution_counts.unread }}{{ contribution_counts.queue }}")
    with django_assert_max_num_queries(1):
        template.render(RequestContext(request, {}))


def test_my_proposals_lists_mine_newest_first(client, player, proposal):
    client.force_login(player)
    page = client.get(reverse("contributions:mine")).content.decode()
    assert reverse("contributions:detail", args=[proposal.pk]) in page


def test_the_card_set_and_game_pages_link_to_the_propose_form(client, card):
    page = client.get(card.get_absolute_url()).content.decode()
    assert f"?kind=edit&amp;card={card.short_id}" in page
    assert "Add a photo of the card" in page
    game_page = client.get(card.game.get_absolute_url()).content.decode()
    assert "?kind=set" in game_page


def test_old_proposals_are_found_by_age(client, curator, proposal):
    Proposal.objects.filter(pk=proposal.pk).update(created_at=timezone.now() - dt.timedelta(days=5))
    client.force_login(curator)
    page = client.get(reverse("contributions:queue") + "?days=3").content.decode()
    assert reverse("contributions:detail", args=[proposal.pk]) in page


def test_a_player_proposes_a_set_and_a_ruling_from_their_forms(client, player, card):
    client.force_login(player)
    set_form = {"c-code": "CFC-NEW", "c-name": "New Horizons", "c-release_date": "2026-05-01"}
    assert client.post(propose_url("set"), set_form | rulebook()).status_code == 302
    ruling = {"c-text": "It may attack twice.", "c-source": "FAQ 2"}
    assert client.post(propose_url("ruling", card), ruling | rulebook()).status_code == 302
    kinds = dict(Proposal.objects.values_list("kind", "changes"))
    assert kinds["set"]["name"] == "New Horizons"
    assert kinds["ruling"]["rulings"]["text"] == "It may attack twice."


def test_a_ruling_form_without_its_card_is_not_found(client, player):
    client.force_login(player)
    assert client.get(propose_url("ruling")).status_code == 404


def test_a_curator_approves_a_proposed_set_with_its_release_date(client, player, curator, game):
    client.force_login(player)
    form = {"c-code": "CFC-NEW", "c-name": "New Horizons", "c-release_date": "2026-05-01"}
    client.post(propose_url("set"), form | rulebook())
    client.force_login(curator)
    response = client.post(reverse("contributions:approve", args=[Proposal.objects.get().pk]))
    assert response.status_code == 302
    added = game.sets.get(code="CFC-NEW")
    assert str(added.release_date) == "2026-05-01"
