"""The German catalogue is complete and current (docs/development.md, "Translations"):
every message of locale/de/LC_MESSAGES/django.po has a German text that is not fuzzy,
makemessages run on the code finds no message the .po lacks, the generated list of the
rules' data names is current, and the compiled .mo is the .po's."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from games.i18n.extraction import MODULE_PATH, module_text

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
#: what makemessages reads: the service's code and templates (games/management/commands/
#: makemessages.py leaves the rest out)
SOURCES = ("accounts", "config", "games", "infra", "rules", "manage.py")


def _msgattrib(*options: str, po: Path = PO) -> str:
    return subprocess.run(["msgattrib", "--no-wrap", *options, str(po)], check=True,
                          capture_output=True, text=True).stdout


def _entries(text: str) -> list[str]:
    """The msgids (with their context) of a .po text, the header left out."""
    entries, context = [], ""
    for line in text.splitlines():
        if line.startswith(("msgctxt ", "#~ msgctxt ")):
            context = line + " "
        elif line.startswith(("msgid ", "#~ msgid ")):
            entries.append(context + line)
            context = ""
    return [entry for entry in entries if entry not in ('msgid ""', '#~ msgid ""')]


def test_every_message_has_a_german_text_that_is_not_fuzzy():
    assert _entries(_msgattrib("--untranslated")) == [], "messages without German"
    assert _entries(_msgattrib("--only-fuzzy")) == [], "fuzzy German (check and unmark)"
    assert "#, fuzzy" not in PO.read_text(encoding="utf-8"), "a fuzzy header"
    # placeholders kept: msgfmt checks every python-format and python-brace-format entry
    subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(PO)], check=True)


def test_makemessages_finds_no_message_the_po_lacks(tmp_path, monkeypatch, settings):
    """makemessages on a copy of the code, merged into a copy of the .po: every message
    it finds must already be there with its German, and none must have gone."""
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(source, tmp_path / name)
    copied = tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"
    copied.parent.mkdir(parents=True)
    shutil.copy(PO, copied)
    monkeypatch.chdir(tmp_path)
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("makemessages", locale=["de"], verbosity=0)
    untranslated = _entries(_msgattrib("--untranslated", po=copied)) + _entries(
        _msgattrib("--only-fuzzy", po=copied))  # msgmerge guesses a near one: fuzzy
    assert untranslated == [], (
        "new messages without German: run `manage.py makemessages -l de` and translate "
        f"them in {PO.relative_to(ROOT)}: {untranslated}")
    obsolete = _entries(_msgattrib("--only-obsolete", po=copied))
    assert obsolete == [], f"messages no longer in the code: run makemessages: {obsolete}"
    assert _entries(_msgattrib("--no-obsolete", po=copied)) == _entries(_msgattrib()), \
        "run `manage.py makemessages -l de`: the .po is not what it writes"


def test_the_list_of_the_rules_data_names_is_current():
    assert (ROOT / MODULE_PATH).read_text(encoding="utf-8") == module_text(), \
        "run `manage.py extract_data_names`, then makemessages"


def test_the_compiled_messages_are_the_po_s():
    mo = PO.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < PO.stat().st_mtime:
        pytest.fail("locale/de/LC_MESSAGES/django.mo is missing or older than the .po: "
                    "run `make messages` (make test and make run do)")
