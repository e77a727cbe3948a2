"""A key naming each pool in backups: added empty, then filled for the pools there are (the
next migration makes it unique and required)."""

import secrets

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def fill_keys(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Pool = apps.get_model("collection", "Pool")
    for pool in Pool.objects.filter(key__isnull=True).only("pk"):
        Pool.objects.filter(pk=pool.pk).update(key=secrets.token_urlsafe(9))


class Migration(migrations.Migration):
    dependencies = [("collection", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="pool",
            name="key",
            field=models.CharField(max_length=16, null=True, editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
