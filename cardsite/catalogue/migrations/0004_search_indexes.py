"""Search indexes, built the way each database does best.

PostgreSQL: a generated tsvector over the folded rules text with a GIN index (full-text
search for `o:`), and pg_trgm GIN indexes on the folded name (substring and similarity).
SQLite: an FTS5 table over the folded rules text, kept in step by triggers.
Neither is a Django field: they are read through raw SQL in search/backends.py.
"""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

POSTGRES_FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "ALTER TABLE catalogue_card ADD COLUMN search_vector tsvector "
    "GENERATED ALWAYS AS (to_tsvector('simple', coalesce(search_text, ''))) STORED",
    "CREATE INDEX catalogue_card_search_vector ON catalogue_card USING gin (search_vector)",
    "CREATE INDEX catalogue_card_search_name_trgm ON catalogue_card "
    "USING gin (search_name gin_trgm_ops)",
]
POSTGRES_BACKWARD = [
    "DROP INDEX IF EXISTS catalogue_card_search_name_trgm",
    "DROP INDEX IF EXISTS catalogue_card_search_vector",
    "ALTER TABLE catalogue_card DROP COLUMN IF EXISTS search_vector",
]
SQLITE_FORWARD = [
    "CREATE VIRTUAL TABLE catalogue_card_fts USING fts5("
    "search_text, content='catalogue_card', content_rowid='id', "
    "tokenize='unicode61 remove_diacritics 2')",
    "CREATE TRIGGER catalogue_card_fts_insert AFTER INSERT ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_fts(rowid, search_text) VALUES (new.id, new.search_text); END",
    "CREATE TRIGGER catalogue_card_fts_delete AFTER DELETE ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_fts(catalogue_card_fts, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); END",
    "CREATE TRIGGER catalogue_card_fts_update AFTER UPDATE OF search_text ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_fts(catalogue_card_fts, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); "
    "INSERT INTO catalogue_card_fts(rowid, search_text) VALUES (new.id, new.search_text); END",
    "INSERT INTO catalogue_card_fts(catalogue_card_fts) VALUES ('rebuild')",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS catalogue_card_fts_update",
    "DROP TRIGGER IF EXISTS catalogue_card_fts_delete",
    "DROP TRIGGER IF EXISTS catalogue_card_fts_insert",
    "DROP TABLE IF EXISTS catalogue_card_fts",
]


def _run(statements: dict[str, list[str]], schema_editor: BaseDatabaseSchemaEditor) -> None:
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql)


def forward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}, schema_editor)


def backward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run({"postgresql": POSTGRES_BACKWARD, "sqlite": SQLITE_BACKWARD}, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0003_search_columns")]
    operations = [migrations.RunPython(forward, backward)]
