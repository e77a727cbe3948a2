"""The suite runs against a real database (SQLite, or PostgreSQL via DATABASE_URL) holding the
real fixtures: every game's rulebook data and sample set, loaded once per session. Each test
runs in a transaction that is rolled back, so tests may change the catalogue freely."""

import io
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import connections
from django.test.utils import setup_databases, teardown_databases
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

# The suite asserts no timings (benchmarks do that): a slow moment on a busy machine must not
# fail a property test.
hypothesis_settings.register_profile("cardsite", deadline=None)
hypothesis_settings.load_profile("cardsite")


@pytest.fixture(scope="session")
def django_db_setup(
    request, django_test_environment, django_db_blocker, django_db_keepdb, django_db_createdb
):
    """pytest-django's, but for the default database whichever tests were collected. It sets
    up only the databases of tests that ask for `db` (or its like), and the browser tests
    reach it through their live server instead: run alone, they found no test database, and
    loaded the games into the one DATABASE_URL names."""
    keepdb = django_db_keepdb and not django_db_createdb
    verbosity = request.config.option.verbose
    with django_db_blocker.unblock():
        databases = setup_databases(
            verbosity=verbosity, interactive=False, aliases={"default"}, keepdb=keepdb
        )
        call_command("load_games", verbosity=0, stdout=io.StringIO())
        name = connections["default"].settings_dict["NAME"]
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            teardown_databases(databases, verbosity=verbosity)
        if connections["default"].vendor == "sqlite":
            # Django removes the test database's file (cardsite/settings/test.py), not the
            # two WAL mode keeps beside it.
            for suffix in ("-wal", "-shm"):
                Path(f"{name}{suffix}").unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def _media_root_is_private_to_the_test(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    yield
    # Faces queued to be drawn ahead belong to this test's folder: none may outlive it.
    from cardsite.catalogue.faces.ahead import settle

    settle()
    shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)


@pytest.fixture(autouse=True)
def _empty_cache():
    # Each test starts cold: a record cached by one test must not answer for another.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def site_url():
    return settings.SITE_URL
