"""infra/startup_heap.py: a web process freezes what it loaded at start, so the garbage
collector's full collections walk only what it made since (they walked ~180,000 objects,
over 100 ms, and were the play socket's ack tail)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc
import config.asgi  # what uvicorn imports in each web process
frozen = gc.get_freeze_count()
tracked = len(gc.get_objects())
print(frozen, tracked)
"""


def test_a_web_process_freezes_its_startup_heap():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    frozen, tracked = map(int, done.stdout.split()[-2:])
    # Django, DRF, strawberry, the engines: frozen; a collection now sees only the rest
    assert frozen > 50_000
    assert tracked < frozen / 10
