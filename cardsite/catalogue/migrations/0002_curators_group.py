"""A Curators group that may edit the catalogue in the admin, and nothing else."""

from django.apps.registry import Apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

EDITABLE = [
    "card",
    "cardset",
    "faction",
    "subtype",
    "rarity",
    "keyword",
    "term",
    "ruling",
    "errata",
]


def create_curators(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # Permissions are normally made after all migrations; the group needs them now.
    app_config = apps.get_app_config("catalogue")
    app_config.models_module = True  # the migration's app stub lacks it; create_permissions asks
    create_permissions(app_config, verbosity=0, apps=apps)
    app_config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    curators, _ = group_model.objects.get_or_create(name="Curators")
    codenames = [
        f"{action}_{model}" for model in EDITABLE for action in ("add", "change", "delete", "view")
    ]
    codenames += ["view_game", "view_cardtype", "change_game"]
    curators.permissions.set(
        permission_model.objects.filter(content_type__app_label="catalogue", codename__in=codenames)
    )


def remove_curators(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name="Curators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(create_curators, remove_curators)]
