"""How a web process sets itself up once loaded (config/asgi.py): infra/startup_heap.py
freezes what it loaded at start, so the garbage collector's full collections walk only
what it made since (they walked ~180,000 objects, over 100 ms, and were the play socket's
ack tail); infra/gil_switch.py shortens the GIL's switch interval to WEB_GIL_SWITCH_MS."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, sys
import config.asgi  # what uvicorn imports in each web process
frozen = gc.get_freeze_count()
tracked = len(gc.get_objects())
print(frozen, tracked, sys.getswitchinterval())
"""


def _web_process(**env) -> list[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", **env}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.split()[-3:]


def test_a_web_process_freezes_its_startup_heap():
    frozen, tracked = map(int, _web_process()[:2])
    # Django, DRF, strawberry, the engines: frozen; a collection now sees only the rest
    assert frozen > 50_000
    assert tracked < frozen / 10


def test_a_web_process_hands_the_gil_over_every_millisecond_or_as_configured():
    assert float(_web_process()[2]) == 0.001
    assert float(_web_process(WEB_GIL_SWITCH_MS="3")[2]) == 0.003
