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

# Celery's Django fix-up runs every system check as a worker imports its tasks, the URL
# configuration's too; the worker_init check below replaces it.
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")


def run_start_checks(process: str, *, urls: bool = True) -> None:
    """``urls=False`` leaves out the URL configuration's checks: they import every view
    and the GraphQL schema, which a Celery process never serves (issue 45: 31 MB of
    strawberry alone); the web tier's start checks them."""
    import django
    from django.apps import apps
    from django.core import checks
    from django.core.checks.registry import registry

    if not apps.ready:
        django.setup()
    if urls:
        messages = checks.run_checks(include_deployment_checks=False)
    else:
        messages = [message for check in registry.get_checks(include_deployment_checks=False)
                    if checks.Tags.urls not in getattr(check, "tags", ())
                    for message in check(app_configs=None, databases=None)]
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
    run_start_checks("celery worker", urls=False)


@signals.beat_init.connect
def _check_beat(**_kwargs) -> None:
    run_start_checks("celery beat", urls=False)
