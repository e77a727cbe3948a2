"""The fixtures are loaded again at every deploy (`make run`, `make deploy`): what players
wrote and curators approved stays."""

import pytest
from django.core.management import call_command

from cardsite.contributions.services.proposals import SourceInput, proposal_approve, proposal_create

pytestmark = pytest.mark.django_db


def test_loading_the_games_again_keeps_an_approved_change_to_a_rulebook_card(
    player, curator, game, card
):
    proposal = proposal_create(
        proposer=player,
        game=game,
        kind="edit",
        card=card,
        changes={"text": "Read off the printed card."},
        source=SourceInput("rulebook", "page 3"),
    )
    proposal_approve(proposal=proposal, reviewer=curator)
    call_command("load_games", game.slug)
    card.refresh_from_db()
    assert card.rules_text == "Read off the printed card."
