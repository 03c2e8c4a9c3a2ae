"""Incompatible: the running release still selects the column."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("probe_app", "0004_add_not_null_column")]
    operations = [migrations.RemoveField("probe", "note")]
