from typing import Any

from django.core.management.base import BaseCommand

from decks.jobs import job_purge_expired


class Command(BaseCommand):
    help = (
        "Delete background jobs past their expiry, with their result files. Celery beat runs "
        "this hourly where a broker is configured; without one, every new job does it first."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        purged = job_purge_expired()
        self.stdout.write(f"Deleted {purged} expired job{'s' if purged != 1 else ''}.")
