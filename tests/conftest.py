"""The suite runs against a real database (SQLite, or PostgreSQL via DATABASE_URL) holding the
real fixtures: every game's rulebook data and sample set, loaded once per session. Each test
runs in a transaction that is rolled back, so tests may change the catalogue freely."""

import io
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import connections
from django.test.utils import setup_databases, teardown_databases
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from tests.live_server import start_live_server

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


# One threaded live server for the whole session (tests/live_server.py), serving the loaded
# catalogue: the browser tests, the generated API client and the TTS first-load tests all ask
# for it. A test commits what else it needs and deletes it after.
@pytest.fixture(scope="session")
def _server(django_db_setup, django_db_blocker) -> Iterator[str]:
    # Threaded, as `make run` is: each request thread has its own connection, on SQLite to
    # the test database's file (cardsite/settings/test.py), so it sees what a test committed.
    with django_db_blocker.unblock():
        thread, url = start_live_server()
        yield url
        thread.terminate()
        default = connections["default"]
        if default.vendor == "postgresql":
            # The server's request threads may still hold sessions on the test database,
            # which would stop it from being dropped at the end of the run.
            with default.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture
def server(_server, django_db_blocker) -> Iterator[str]:
    # The server thread reads the database while the test drives the browser.
    with django_db_blocker.unblock():
        yield _server
