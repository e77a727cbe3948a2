"""Hand edits (the admin) change the catalogue too; imports bump the version themselves.

Anything a card's page or API record shows counts: its own row, its relations, and the sets,
factions, keywords, rarities, rulings and errata it displays.
"""

from typing import Any

from django.db.models.signals import m2m_changed, post_delete, post_save

from cardsite.catalogue.models import (
    Card,
    CardSet,
    CardType,
    Errata,
    Faction,
    Game,
    Keyword,
    Rarity,
    Ruling,
    Subtype,
)
from cardsite.catalogue.versioning import catalogue_written


def catalogue_changed(sender: type, **kwargs: Any) -> None:
    catalogue_written()


for model in (Card, CardSet, CardType, Errata, Faction, Game, Keyword, Rarity, Ruling, Subtype):
    post_save.connect(catalogue_changed, sender=model, dispatch_uid=f"bump-save-{model.__name__}")
    post_delete.connect(catalogue_changed, sender=model, dispatch_uid=f"bump-del-{model.__name__}")
for relation in (Card.factions.through, Card.keywords.through, Card.subtypes.through):
    m2m_changed.connect(
        catalogue_changed, sender=relation, dispatch_uid=f"bump-{relation.__name__}"
    )
