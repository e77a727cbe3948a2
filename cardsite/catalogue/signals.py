"""Hand edits (the admin) change the catalogue too; imports bump the version themselves."""

from typing import Any

from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from cardsite.catalogue.models import Card
from cardsite.catalogue.versioning import bump_catalogue_version


@receiver(post_save, sender=Card)
@receiver(post_delete, sender=Card)
def card_changed(sender: type, **kwargs: Any) -> None:
    transaction.on_commit(bump_catalogue_version)


for relation in (Card.factions.through, Card.keywords.through, Card.subtypes.through):
    m2m_changed.connect(card_changed, sender=relation, dispatch_uid=f"bump-{relation.__name__}")
