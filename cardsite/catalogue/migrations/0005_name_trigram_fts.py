"""SQLite: a trigram FTS5 index on folded names, so `name contains word` is an index lookup
rather than a scan. PostgreSQL already serves the same LIKE from its pg_trgm GIN index."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

FORWARD = [
    "CREATE VIRTUAL TABLE catalogue_card_name_fts USING fts5("
    "search_name, content='catalogue_card', content_rowid='id', tokenize='trigram')",
    "CREATE TRIGGER catalogue_card_name_fts_insert AFTER INSERT ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_name_fts(rowid, search_name) VALUES (new.id, new.search_name); END",
    "CREATE TRIGGER catalogue_card_name_fts_delete AFTER DELETE ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_name_fts(catalogue_card_name_fts, rowid, search_name) "
    "VALUES ('delete', old.id, old.search_name); END",
    "CREATE TRIGGER catalogue_card_name_fts_update AFTER UPDATE OF search_name ON catalogue_card "
    "BEGIN INSERT INTO catalogue_card_name_fts(catalogue_card_name_fts, rowid, search_name) "
    "VALUES ('delete', old.id, old.search_name); "
    "INSERT INTO catalogue_card_name_fts(rowid, search_name) VALUES (new.id, new.search_name); END",
    "INSERT INTO catalogue_card_name_fts(catalogue_card_name_fts) VALUES ('rebuild')",
]
BACKWARD = [
    "DROP TRIGGER IF EXISTS catalogue_card_name_fts_update",
    "DROP TRIGGER IF EXISTS catalogue_card_name_fts_delete",
    "DROP TRIGGER IF EXISTS catalogue_card_name_fts_insert",
    "DROP TABLE IF EXISTS catalogue_card_name_fts",
]


def forward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        for sql in FORWARD:
            schema_editor.execute(sql)


def backward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        for sql in BACKWARD:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0004_search_indexes")]
    operations = [migrations.RunPython(forward, backward)]
