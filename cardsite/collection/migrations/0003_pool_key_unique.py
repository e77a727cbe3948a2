import django.db.models
from django.db import migrations

import cardsite.collection.models


class Migration(migrations.Migration):
    dependencies = [("collection", "0002_pool_key")]

    operations = [
        migrations.AlterField(
            model_name="pool",
            name="key",
            field=django.db.models.CharField(
                default=cardsite.collection.models.new_pool_key,
                editable=False,
                max_length=16,
                unique=True,
            ),
        ),
    ]
