"""A game's cards and vocabulary as the in-memory filter evaluator reads them
(engines/filters): the same facts the SQL compiler reads from the catalogue's tables, so a query
answers alike in the database and in memory."""

from __future__ import annotations

from cardsite.catalogue.models import Card, Game
from engines.filters import CardRecord, Named, RarityInfo, Schema, SetInfo


def filter_schema(game: Game) -> Schema:
    """The stats a query over `game`'s cards may name, and the values that exist in it."""
    return Schema(
        stats=game.engine.stats,
        types=tuple(game.card_types.values_list("name", flat=True)),
        subtypes=tuple(game.subtypes.values_list("name", flat=True)),
        factions=tuple(Named(*row) for row in game.factions.values_list("name", "abbreviation")),
        keywords=tuple(Named(*row) for row in game.keywords.values_list("name", "abbreviation")),
        sets=tuple(SetInfo(*row) for row in game.sets.values_list("code", "name", "is_official")),
        rarities=tuple(RarityInfo(*row) for row in game.rarities.values_list("name", "order")),
        games=(game.slug,),
    )


def card_records(game: Game) -> list[CardRecord]:
    """Every card of `game`, keyed by its short id, in the catalogue's order."""
    cards = (
        Card.objects.filter(game=game)
        .select_related("card_type", "card_set", "rarity")
        .prefetch_related("factions", "keywords", "subtypes")
    )
    return [
        CardRecord(
            key=card.short_id,
            name=card.name,
            card_type=card.card_type.name if card.card_type is not None else "",
            subtypes=tuple(s.name for s in card.subtypes.all()),
            factions=tuple(f.name for f in card.factions.all()),
            keywords=tuple(k.name for k in card.keywords.all()),
            stats=dict(card.stats),
            text=card.rules_text,
            set_code=card.card_set.code,
            official=card.card_set.is_official,
            rarity=card.rarity.name if card.rarity is not None else None,
            game=game.slug,
        )
        for card in cards
    ]
