"""Analyses stored before 0014 were judged by points alone (docs/analysis.md): the judge
now compares results first, and an analysis is keyed by match, rules version and budget
only, so the old ones would be served as if current. They are dropped; asking again
computes them with today's judge."""

from django.db import migrations


def drop_first_judge_analyses(apps, schema_editor):
    apps.get_model("games", "Analysis").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0014_analysis_result'),
    ]

    operations = [
        migrations.RunPython(drop_first_judge_analyses, migrations.RunPython.noop),
    ]
