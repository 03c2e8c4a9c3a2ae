"""``manage.py makemessages`` with this project's settings, so a plain
``manage.py makemessages -l de`` does the right thing (docs/development.md,
"Translations"):

- ``tr`` is a keyword: the rules library marks its texts with ``rules.text.tr``
  (it cannot import Django's gettext);
- the virtualenv, the local services, node packages, tests, benchmarks and tools are not
  searched (their strings are not the service's);
- no source locations in the .po (``#: file:line`` lines change with every edit and
  would make every branch's .po conflict), and no obsolete entries (a message gone from
  the code leaves the .po; git keeps its history).
"""

from __future__ import annotations

from django.core.management.commands import makemessages

IGNORED = [".venv", ".var", "node_modules", "tests", "bench", "tools", "clients", "deploy",
           "docs", "scripts", "locale", "*/migrations/*", "static"]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=tr"]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        options["no_location"] = True
        options["no_obsolete"] = True
        options.setdefault("add_location", None)
        return super().handle(*args, **options)
