"""The manage_match permission and the "match admin" group (issue 9, defect 5): API admin
powers come from model permissions, not is_staff (games/matches/permissions.py)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "match admin"
# (model, codename): manage any match through the API and admin actions; see matches and
# their seats, moves and results in the admin, and the replay page (view_match).
PERMISSIONS = [
    ("match", "manage_match"),
    ("match", "view_match"),
    ("seat", "view_seat"),
    ("move", "view_move"),
    ("result", "view_result"),
]


def create_group(apps, schema_editor):
    # Permissions are normally made after all migrations (post_migrate): make this app's
    # now, so the group can hold them on a fresh database.
    app_config = apps.get_app_config("games")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for model, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(
            content_type__app_label="games", content_type__model=model, codename=codename))


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0004_incidents_append_only"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="match",
            options={
                "ordering": ["-created_at", "-id"],
                "permissions": [
                    ("manage_match", "Can start, abort and hand seats to bots in any match"),
                ],
                "verbose_name_plural": "matches",
            },
        ),
        migrations.RunPython(create_group, delete_group),
    ]
