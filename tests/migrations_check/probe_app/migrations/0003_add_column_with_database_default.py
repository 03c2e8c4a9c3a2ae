"""Compatible: NOT NULL, but the database fills the column in for the running release's
inserts (db_default; a Python-side default= would not)."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("probe_app", "0002_add_nullable_column")]
    operations = [migrations.AddField("probe", "size", models.IntegerField(db_default=0))]
