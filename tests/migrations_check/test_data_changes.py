"""Migrations that delete stored rows or stamp a version on rows they did not see made are
flagged (tests/migrations_check/data_changes.py, issue 40); django-migration-linter passed
both kinds (games 0015 and 0016)."""

from __future__ import annotations

import pytest
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader

from tests.migrations_check.data_changes import findings
from tests.migrations_check.test_backward_compatible import OUR_APPS

pytestmark = pytest.mark.django_db

#: migrations of ours that delete rows or stamp a version on purpose, with why. Add one
#: only with the reason a reader of the stored records would want.
ACKNOWLEDGED = {
    ("games", "0015_drop_first_judge_analyses"):
        "analyses are derived data (computed again on request from the move log), and the "
        "ones before 0014 were judged by points alone and would have been served as "
        "today's; no match, move or result is touched",
    ("games", "0016_analysis_judge_version"):
        "applied everywhere before this check: its db_default 2 stamps rows the release "
        "before it wrote (judge 1 or 2) as judge 2; no corrective migration can tell them "
        "apart (nothing recorded which code wrote a row), and none is needed: today's judge "
        "is 3, so every row stamped 2 is not served and is judged again in place on the next "
        "request (games.analysis.services._judge_again; docs/operations.md)",
}


def _ours() -> dict[tuple[str, str], migrations.Migration]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return {key: migration for key, migration in loader.disk_migrations.items()
            if key[0] in OUR_APPS}


def test_no_migration_of_ours_deletes_rows_or_stamps_a_version_unacknowledged():
    ours = _ours()
    flagged = {key: findings(migration) for key, migration in ours.items()
               if findings(migration)}
    assert {key: found for key, found in flagged.items() if key not in ACKNOWLEDGED} == {}
    # every acknowledgement still names a migration that needs it
    assert set(ACKNOWLEDGED) <= set(flagged)


def test_the_two_examples_are_flagged():
    ours = _ours()
    assert findings(ours["games", "0015_drop_first_judge_analyses"]) == [
        "deletes rows (RunPython drop_first_judge_analyses)"]
    assert findings(ours["games", "0016_analysis_judge_version"]) == [
        "stamps a version (analysis.judge_version with a default)"]


def test_what_is_flagged_and_what_is_not():
    def migration(*operations):
        return type("Migration", (migrations.Migration,), {"operations": list(operations)})(
            "probe", "probe_app")

    assert findings(migration(migrations.RunSQL("DELETE FROM games_move WHERE ply > 3"))) == [
        "deletes rows (RunSQL)"]
    assert findings(migration(migrations.RunSQL(["TRUNCATE games_feedevent"]))) == [
        "deletes rows (RunSQL)"]
    assert findings(migration(migrations.AddField(
        "match", "rules_version", models.PositiveSmallIntegerField(db_default=1)))) == [
        "stamps a version (match.rules_version with a default)"]
    # a nullable version column (NULL: unknown), an index, a non-version default: clean
    assert findings(migration(
        migrations.AddField("analysis", "judge_version",
                            models.PositiveSmallIntegerField(null=True)),
        migrations.AddField("analysis", "attempts", models.PositiveSmallIntegerField(default=0)),
        migrations.RunSQL("CREATE INDEX probe ON games_move (ply)"),
        migrations.RunPython(migrations.RunPython.noop),
    )) == []
