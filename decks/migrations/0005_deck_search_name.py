"""A deck's name folded as card names are, for the public list's name search; existing decks
get theirs here, new ones from a pre_save receiver (decks/signals.py)."""

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from engines.filters.text import fold


def fold_names(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Deck = apps.get_model("decks", "Deck")
    for deck in Deck.objects.only("id", "name").iterator():
        Deck.objects.filter(pk=deck.pk).update(search_name=fold(deck.name))


class Migration(migrations.Migration):
    dependencies = [("decks", "0004_deck_deleted_at")]

    operations = [
        migrations.AddField(
            model_name="deck",
            name="search_name",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.RunPython(fold_names, migrations.RunPython.noop),
    ]
