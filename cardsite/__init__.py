# Loaded with Django, so @shared_task binds to this project's Celery app.
from cardsite.celery import app as celery_app

__all__ = ["celery_app"]
