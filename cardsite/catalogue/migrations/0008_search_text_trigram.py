"""PostgreSQL: a trigram index on the folded rules text. A phrase (`o:"draw a card"`) also
requires the folded phrase as a substring, which this index narrows to a few rows before the
full-text position check; without it, every row holding all the words is rechecked."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def forward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX catalogue_card_search_text_trgm ON catalogue_card "
            "USING gin (search_text gin_trgm_ops)"
        )


def backward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS catalogue_card_search_text_trgm")


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0007_search_name_index")]
    operations = [migrations.RunPython(forward, backward)]
