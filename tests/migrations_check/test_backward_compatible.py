"""Migrations stay compatible with the release still running (issue 25, rolling restarts).

During a rolling restart (docs/operations.md "Rolling restarts") the new release migrates
first, while the old release's web processes and workers still serve: every migration must
leave a schema the old code can read and write. django-migration-linter (the dev extra)
turns each migration into its SQL (``sqlmigrate``) and refuses what breaks the running code:
a dropped or renamed column or table, a NOT NULL column the old inserts do not fill, and
more. The first test lints every migration of ours; the second shows, on a throwaway app
(``probe_app``), that a backward-incompatible migration is caught and a compatible one is not.

A migration that must break compatibility is split over two releases (expand, then
contract: add the new column, ship code that uses it, drop the old one a release later);
one already applied everywhere may be listed in ``ACCEPTED`` below, with the reason."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django_migration_linter import MigrationLinter
from django_migration_linter.migration_linter import MessageType

pytestmark = pytest.mark.django_db

#: migrations of ours the linter refuses, applied by every deployment long before the
#: rolling-restart rule existed; each with why it is accepted. Add none: split instead.
ACCEPTED = {
    ("accounts", "0002_username_any_case"):
        "a unique index on lower(username): refuses a case-variant duplicate the release "
        "before it could still insert; that release is gone and the table was small",
    ("games", "0007_move_events_and_to_act"):
        "adds NOT NULL columns with a Python-side default, so the release before it could "
        "not insert moves during the migration; that release is gone (new NOT NULL "
        "columns now take db_default, as probe_app's 0003 shows)",
}

OUR_APPS = ["accounts", "apps_oauth", "games"]


class RecordingLinter(MigrationLinter):
    """The linter, keeping each migration's verdict and messages instead of printing them."""

    def __init__(self, **options) -> None:
        self.verdicts: dict[tuple[str, str], str] = {}
        self.messages: dict[tuple[str, str], list[str]] = {}
        self._current: tuple[str, str] | None = None
        super().__init__(no_cache=True, analyser_string="postgresql", **options)

    def print_linting_msg(self, app_label, migration_name, msg, lint_result) -> None:
        self._current = (app_label, migration_name)
        self.verdicts[self._current] = lint_result.value
        self.messages[self._current] = []

    def print_errors(self, errors) -> None:
        self.messages[self._current] += [issue.message for issue in errors]

    def print_warnings(self, warnings) -> None:
        self.messages[self._current] += [f"warning: {issue.message}" for issue in warnings]


def lint(apps: list[str], ignore: list[str] = ()) -> RecordingLinter:
    linter = RecordingLinter(include_apps=apps, ignore_name=list(ignore))
    linter.lint_all_migrations()
    return linter


def test_every_migration_of_ours_is_compatible_with_the_running_release():
    linter = lint(OUR_APPS, ignore=[name for _, name in ACCEPTED])
    refused = {key: linter.messages[key] for key, verdict in linter.verdicts.items()
               if verdict == MessageType.ERROR.value}
    linted = {key for key, verdict in linter.verdicts.items() if key[0] in OUR_APPS}
    assert not refused, (
        "backward-incompatible migrations (split them: expand now, contract a release "
        f"later; docs/operations.md): {refused}")
    # every migration was looked at, and the accepted ones are still there to accept
    assert {app for app, _ in linted} == set(OUR_APPS) and len(linted) >= 14
    assert all(linter.verdicts.get(key) == MessageType.IGNORE.value for key in ACCEPTED)


def test_a_backward_incompatible_migration_is_caught():
    with override_settings(INSTALLED_APPS=["tests.migrations_check.probe_app"]):
        linter = lint(["probe_app"])
    verdicts = {name: verdict for (_, name), verdict in linter.verdicts.items()}
    assert verdicts == {
        "0001_initial": "ok",
        "0002_add_nullable_column": "ok",
        "0003_add_column_with_database_default": "ok",
        "0004_add_not_null_column": "error",
        "0005_drop_column": "error",
        "0006_rename_column": "error",
        "0007_rename_table": "error",
    }, linter.messages
    assert linter.has_errors
