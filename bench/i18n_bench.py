"""What German costs (docs/development.md, "Translations").

    eval "$(scripts/services.sh env)"; .venv/bin/python bench/i18n_bench.py [--n 300]

Times, median in milliseconds, a game's catalogue entry (``games.catalogue.get_game``)
in English and in German, and without the translation step (the rules' entry alone);
and, in microseconds, building a rules message with ``rules.text.tr`` against a plain
f-string and translating it with gettext. No database is needed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from games import catalogue  # noqa: E402
from infra.translation import localized  # noqa: E402
from rules.text import tr  # noqa: E402


def _median(function, n: int, unit: float) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * unit)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    n = parser.parse_args().n
    for game in ("han", "hansa"):
        translate = catalogue.localized_entry
        catalogue.localized_entry = lambda entry: entry
        bare = _median(lambda: catalogue.get_game(game), n, 1e3)  # noqa: B023
        catalogue.localized_entry = translate
        row = [f"{game:5} catalogue entry: untranslated {bare:.2f} ms"]
        for language in ("en", "de"):
            with translation.override(language):
                catalogue.get_game(game)  # warm the card labels
                row.append(f"{language} {_median(lambda: catalogue.get_game(game), n, 1e3):.2f} ms")  # noqa: B023, E501
        print(", ".join(row))
    card = "red"
    plain = _median(lambda: f"you hold no {card} card", n * 10, 1e6)
    marked = _median(lambda: tr("you hold no {card} card", card=card), n * 10, 1e6)
    with translation.override("de"):
        german = _median(lambda: localized(tr("you hold no {card} card", card=card)),
                         n * 10, 1e6)
    print(f"rules message: f-string {plain:.2f} us, tr() {marked:.2f} us, "
          f"tr() + German {german:.2f} us")


if __name__ == "__main__":
    main()
