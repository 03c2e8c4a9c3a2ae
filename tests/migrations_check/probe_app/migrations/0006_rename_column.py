"""Incompatible: the running release reads and writes the old name."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("probe_app", "0005_drop_column")]
    operations = [migrations.RenameField("probe", "name", "title")]
