"""A card's type may be empty (the source does not state it), and a card lists the fields whose
values are inferred rather than stated.

On SQLite both changes rebuild the card table, and dropping the old table drops the triggers
that keep the FTS5 indexes of 0004 and 0005 in step with it: they are made again afterwards,
in either direction, and the indexes rebuilt.
"""

import django.db.models.deletion
from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

# The triggers as 0004_search_indexes and 0005_name_trigram_fts made them.
SQLITE_TRIGGERS = [
    "CREATE TRIGGER catalogue_card_fts_insert AFTER INSERT ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_fts(rowid, search_text) VALUES (new.id, new.search_text); END",
    "CREATE TRIGGER catalogue_card_fts_delete AFTER DELETE ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_fts(catalogue_card_fts, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); END",
    "CREATE TRIGGER catalogue_card_fts_update AFTER UPDATE OF search_text ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_fts(catalogue_card_fts, rowid, search_text) "
    "VALUES ('delete', old.id, old.search_text); "
    "INSERT INTO catalogue_card_fts(rowid, search_text) VALUES (new.id, new.search_text); END",
    "CREATE TRIGGER catalogue_card_name_fts_insert AFTER INSERT ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_name_fts(rowid, search_name) VALUES (new.id, new.search_name); END",
    "CREATE TRIGGER catalogue_card_name_fts_delete AFTER DELETE ON catalogue_card BEGIN "
    "INSERT INTO catalogue_card_name_fts(catalogue_card_name_fts, rowid, search_name) "
    "VALUES ('delete', old.id, old.search_name); END",
    "CREATE TRIGGER catalogue_card_name_fts_update AFTER UPDATE OF search_name ON catalogue_card "
    "BEGIN INSERT INTO catalogue_card_name_fts(catalogue_card_name_fts, rowid, search_name) "
    "VALUES ('delete', old.id, old.search_name); "
    "INSERT INTO catalogue_card_name_fts(rowid, search_name) VALUES (new.id, new.search_name); END",
]
TRIGGER_NAMES = [sql.split()[2] for sql in SQLITE_TRIGGERS]


def restore_sqlite_triggers(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for name in TRIGGER_NAMES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    for sql in SQLITE_TRIGGERS:
        schema_editor.execute(sql)
    schema_editor.execute("INSERT INTO catalogue_card_fts(catalogue_card_fts) VALUES ('rebuild')")
    schema_editor.execute(
        "INSERT INTO catalogue_card_name_fts(catalogue_card_name_fts) VALUES ('rebuild')"
    )


class Migration(migrations.Migration):
    dependencies = [("catalogue", "0008_search_text_trigram")]

    operations = [
        # Undoing the two changes below rebuilds the table again; this runs last when undoing.
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_triggers),
        migrations.AddField(
            model_name="card",
            name="inferred",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Fields not stated for this card but copied from the same card in "
                "another faction's deck, on the rulebook's statement that the decks are "
                "functionally identical, named as in catalogue documents, e.g. "
                '["stats.combat_power", "keywords"].',
            ),
        ),
        migrations.AlterField(
            model_name="card",
            name="card_type",
            field=models.ForeignKey(
                blank=True,
                help_text="Empty: the source does not state the card's type.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="cards",
                to="catalogue.cardtype",
                verbose_name="type",
            ),
        ),
        migrations.RunPython(restore_sqlite_triggers, migrations.RunPython.noop),
    ]
