"""The SQLite search indexes stay in step with the card table after every migration: a
migration that rebuilds the table drops its triggers, and search then finds nothing new."""

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL indexes need no triggers")
def test_every_search_trigger_is_on_the_card_table_after_the_migrations():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'catalogue_card'"
        )
        names = {row[0] for row in cursor.fetchall()}
    assert names == {
        f"catalogue_card_{index}_{event}"
        for index in ("fts", "name_fts")
        for event in ("insert", "delete", "update")
    }
