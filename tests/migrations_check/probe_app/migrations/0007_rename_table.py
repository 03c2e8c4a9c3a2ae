"""Incompatible: the running release queries the old table name."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("probe_app", "0006_rename_column")]
    operations = [migrations.AlterModelTable("probe", "probe_renamed")]
