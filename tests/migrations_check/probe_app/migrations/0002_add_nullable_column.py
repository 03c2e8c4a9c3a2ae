"""Compatible: the running release inserts rows without the new column, which may be null."""
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("probe_app", "0001_initial")]
    operations = [migrations.AddField("probe", "colour", models.CharField(max_length=10, null=True))]
