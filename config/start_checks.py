"""The system checks (``manage.py check``: infra/checks.py, infra/config_checks.py) at the
start of every Celery worker and beat, as ``migrate`` and scripts/serve_web.sh run them:
a configuration error stops the process with its message and exit status 1, before it
takes a task or schedules one (issue 40). Warnings are logged and the process starts."""

from __future__ import annotations

import logging
import os
import sys

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
        if message not in errors:
            logger.warning("%s: %s", process, message)
    if errors:
        text = "\n".join(str(message) for message in errors)
        sys.stderr.write(f"{process}: the configuration is refused (system checks):\n"
                         f"{text}\n")
        sys.stderr.flush()
        # out at once: raising here is caught and logged by Celery, which may go on
        os._exit(1)


@signals.worker_init.connect
def _check_worker(**_kwargs) -> None:
    run_start_checks("celery worker")


@signals.beat_init.connect
def _check_beat(**_kwargs) -> None:
    run_start_checks("celery beat")
