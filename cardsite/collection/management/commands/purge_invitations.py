from typing import Any

from django.core.management.base import BaseCommand

from cardsite.collection.services.pools import INVITATION_DAYS, invitations_expire


class Command(BaseCommand):
    help = (
        f"Delete pool invitations left unanswered for {INVITATION_DAYS} days (they count for "
        "nothing already). Celery beat runs this daily where a broker is configured; without "
        "one, run it from cron."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = invitations_expire()
        self.stdout.write(f"Deleted {deleted} expired invitation{'s' if deleted != 1 else ''}.")
