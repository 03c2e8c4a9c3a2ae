"""The system checks (``manage.py check``: infra/checks.py, infra/config_checks.py) at the
start of every process that serves or works: the web tier (scripts/serve_web.sh runs
``run_start_checks("web")`` before uvicorn) and every Celery worker and beat (on
``worker_init`` / ``beat_init``); ``migrate`` runs them itself. A configuration error stops
the process with its message and exit status 1, before it serves a request, takes a task
or schedules one (issue 40). Warnings are logged and the process starts.

Through the log (JSON lines, like every other line of these processes: docs/operations.md
"Logs"), not ``manage.py check``'s text."""

from __future__ import annotations

import logging
import os

from celery import signals

logger = logging.getLogger(__name__)


def run_start_checks(process: str) -> None:
    import django
    from django.apps import apps
    from django.core import checks

    if not apps.ready:
        django.setup()
    messages = checks.run_checks(include_deployment_checks=False)
    errors = [message for message in messages if message.is_serious()]
    for message in messages:
        if message not in errors and not message.is_silenced():
            logger.warning("%s: configuration warning: %s", process, message)
    if errors:
        for message in errors:
            logger.critical("%s: the configuration is refused: %s", process, message)
        logging.shutdown()  # the lines out before the process is
        # at once: an exception here is caught and logged by Celery, which may go on
        os._exit(1)


@signals.worker_init.connect
def _check_worker(**_kwargs) -> None:
    run_start_checks("celery worker")


@signals.beat_init.connect
def _check_beat(**_kwargs) -> None:
    run_start_checks("celery beat")
