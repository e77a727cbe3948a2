"""The test suite: SQLite by default, PostgreSQL when DATABASE_URL points at it (.ci/run)."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("EMAIL_URL", "consolemail://")
os.environ.setdefault("SECRET_KEY", "test-only-not-secret")
os.environ.setdefault("DEBUG", "false")

from cardsite.settings.base import *  # noqa: F403
from cardsite.settings.base import BASE_DIR

# A fast hasher: the suite creates users, and PBKDF2's cost buys nothing here.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The worker that tests/hostile/test_worker_death.py starts writes where its test reads.
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / ".test-media")  # noqa: F405
SITE_URL = "http://testserver"

# No pooled connections in tests: the browser tests' server threads must let go of theirs,
# or PostgreSQL cannot drop the test database at the end.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # noqa: F405
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, as `make run` has, not Django's shared in-memory database: there every thread
    # shares one cache whose table locks fail at once ("database table is locked") whatever
    # the busy timeout, so a live server thread (tests/browser) raced the test that drove
    # it. On a file each thread has its own connection and the same WAL, busy timeout and
    # IMMEDIATE writes as the site (cardsite/settings/base.py). One file per run, so two runs
    # in one checkout do not share it; Django deletes it at the end.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(Path(tempfile.gettempdir()) / f"cardsite-test-{os.getpid()}.sqlite3")
    }

# No collectstatic outside production: whitenoise serves from the finders instead.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
# A test sees a game it loads at once (through the cache); a timed database check would add a
# query to whichever request happened to come due.
GAMES_RECHECK_SECONDS = None
