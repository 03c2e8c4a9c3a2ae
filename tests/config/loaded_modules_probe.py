"""Imported by a test's real Celery worker (``-I``): once the worker is ready, it writes
the names of every module the process has loaded to ``LOADED_MODULES_FILE``
(tests/config/test_worker_imports.py)."""

import json
import os
import sys

from celery import signals


@signals.worker_ready.connect
def _write_loaded_modules(**_kwargs) -> None:
    with open(os.environ["LOADED_MODULES_FILE"], "w") as found:
        json.dump(sorted(sys.modules), found)
