"""``manage.py extract_data_names``: write games/i18n/data_names.py, the names and
descriptions of the rules' data for makemessages (games/i18n/extraction.py says why).
Run it, then ``makemessages``, when a rules data file or a catalogue text changes."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from games.i18n.extraction import MODULE_PATH, module_text


class Command(BaseCommand):
    help = "Write games/i18n/data_names.py from the rules' catalogue (then run makemessages)."

    def handle(self, *args, **options) -> None:
        path = Path(settings.BASE_DIR) / MODULE_PATH
        path.write_text(module_text(), encoding="utf-8")
        self.stdout.write(f"wrote {path}")
