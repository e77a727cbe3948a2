"""Celery tasks of collections; they only hand over to the services."""

from celery import shared_task

from cardsite.collection.services.pools import invitations_expire


@shared_task(name="cardsite.collection.tasks.purge_expired_invitations")
def purge_expired_invitations() -> int:
    return invitations_expire()
