from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAME = PASSWORD = "admin"


class Command(BaseCommand):
    help = "Local development only: make sure the admin/admin superuser exists."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("dev_superuser runs only with DEBUG on; it sets a known password.")
        user_model = get_user_model()
        if not user_model.objects.filter(username=USERNAME).exists():
            user_model.objects.create_superuser(USERNAME, "admin@example.com", PASSWORD)
        self.stdout.write(f"Admin login for local development: {USERNAME} / {PASSWORD}")
