from typing import Any

from django.core.management.base import BaseCommand

from decks.models import DELETED_KEEP_DAYS
from decks.services import decks_purge


class Command(BaseCommand):
    help = (
        f"Remove for good decks deleted {DELETED_KEEP_DAYS} or more days ago, with their cards "
        "and pictures. Celery beat runs this daily where a broker is configured; without one, "
        "run it from cron."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        purged = decks_purge()
        self.stdout.write(f"Purged {purged} deleted deck{'s' if purged != 1 else ''}.")
