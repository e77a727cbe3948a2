"""Local development (`make run`): DEBUG on, a throwaway key, SQLite unless DATABASE_URL is set."""

import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("EMAIL_URL", "consolemail://")
os.environ.setdefault("SECRET_KEY", "local-development-only-not-secret")

from cardsite.settings.base import *  # noqa: F403
from cardsite.settings.base import INSTALLED_APPS

# First, so that its runserver (a longer listen queue) is the one manage.py finds.
INSTALLED_APPS = ["cardsite.devserver", *INSTALLED_APPS]

# No collectstatic outside production: whitenoise serves from the finders instead.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
