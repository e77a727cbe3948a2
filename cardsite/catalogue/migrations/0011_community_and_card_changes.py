"""A card's community mark and its change history. On SQLite adding a foreign key to the card
table rebuilds it, which drops the search triggers: they are made again, as in 0009."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

restore_sqlite_triggers = importlib.import_module(
    "cardsite.catalogue.migrations.0009_card_type_optional_and_inferred"
).restore_sqlite_triggers


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0010_rarity_order_bound"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Undoing the changes below rebuilds the table again; this runs last when undoing.
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_triggers),
        migrations.AddField(
            model_name="card",
            name="community",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "not community-sourced"),
                    ("sourced", "community-sourced"),
                    ("confirmed", "community-sourced, confirmed"),
                ],
                default="",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="card",
            name="confirmed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.CreateModel(
            name="CardChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("field", models.CharField(max_length=40)),
                ("before", models.JSONField(blank=True, null=True)),
                ("after", models.JSONField(blank=True, null=True)),
                ("source", models.JSONField(blank=True, default=dict)),
                ("proposal", models.PositiveIntegerField(blank=True, null=True)),
                ("at", models.DateTimeField()),
                (
                    "author",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "card",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="changes",
                        to="catalogue.card",
                    ),
                ),
                (
                    "reverts",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="reverted_by",
                        to="catalogue.cardchange",
                    ),
                ),
                (
                    "reviewer",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
                "indexes": [
                    models.Index(
                        fields=["card", "field", "at"], name="catalogue_c_card_id_229b19_idx"
                    )
                ],
            },
        ),
        migrations.RunPython(restore_sqlite_triggers, migrations.RunPython.noop),
    ]
