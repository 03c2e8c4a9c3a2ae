"""Incompatible: NOT NULL with a default only Python knows. The running release's
inserts do not name the column and fail."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("probe_app", "0003_add_column_with_database_default")]
    operations = [migrations.AddField("probe", "weight", models.IntegerField(default=1))]
