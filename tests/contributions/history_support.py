"""Players, curators and approved proposals for the history and provenance tests, made with
the contributions app's own services."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from cardsite.catalogue.models import Card, Game
from cardsite.contributions.services.curators import curator_add
from cardsite.contributions.services.proposals import (
    SourceInput,
    proposal_approve,
    proposal_create,
)

GAME = "conquest-for-the-capital"
RULEBOOK_CARD = "zp964hcr"  # Elf Special Card, from the rulebook with its passage
SAMPLE_CARD = "rzp30s9g"  # Moonlit Ambush, in the unofficial sample set
PUBLISHER = SourceInput("publisher", url="https://publisher.example/cards/hand-card")


def player(name: str) -> Any:
    """A user old enough to propose."""
    return get_user_model().objects.create_user(
        name, password="a long pass phrase", date_joined=timezone.now() - dt.timedelta(days=2)
    )


def curator(name: str) -> Any:
    user = player(name)
    curator_add(user=user, game=Game.objects.get(slug=GAME))
    return user


def approved_edit(card: Card, proposer: Any, reviewer: Any, **changes: Any) -> None:
    proposal = proposal_create(
        proposer=proposer,
        game=card.game,
        kind="edit",
        card=card,
        changes=changes,
        source=PUBLISHER,
    )
    proposal_approve(proposal=proposal, reviewer=reviewer)


def approved_card(proposer: Any, reviewer: Any, number: str = "900") -> Card:
    """A card a player added from their hand, approved by a curator."""
    game = Game.objects.get(slug=GAME)
    proposal = proposal_create(
        proposer=proposer,
        game=game,
        kind="card",
        changes={"set": "CFC-RB", "number": number, "name": "Hand Card", "text": "Draw a card."},
        source=SourceInput("rulebook", text="Printed on the card, page 3"),
    )
    proposal_approve(proposal=proposal, reviewer=reviewer)
    return Card.objects.get(game=game, card_set__code="CFC-RB", number=number)
