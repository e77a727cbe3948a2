"""The Celery application: it runs decks' background jobs when CELERY_BROKER_URL is set.

Start a worker with `celery -A cardsite worker` (and `celery -A cardsite beat` for the hourly
purge of expired job results and the daily purge of decks deleted long enough ago)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings.local")

app = Celery("cardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
