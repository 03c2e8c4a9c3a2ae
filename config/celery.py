"""The Celery app: the settings it reads, where its tasks live, and the worker's steps.

Services never import a task: they send tasks by name through ``games.dispatch``. The
packages below hold the task modules (each a ``tasks.py``); a worker imports them at
start (autodiscovery), and an eager process (tests, ``play_bots``) when it first runs one.
"""

import os

from celery import Celery, signals

from config import start_checks  # noqa: F401 - the system checks at worker and beat start
from games.matches.worker_steps import ResumeAfterConnect
from infra import startup_heap
from infra.observability import (  # noqa: F401 - connect request ids, metrics
    celery_request,
    celery_signals,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

#: the packages whose ``tasks`` module holds Celery tasks
TASK_PACKAGES = ["games.matches", "games.clocks", "games.quickmatch", "games.analysis",
                 "games.webhooks", "games.notifications", "games.mail"]

# task_cls: Celery's "received" line carries the request id that enqueued the task
app = Celery("game_service", task_cls="infra.observability.celery_request:TaskWithRequestId")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(lambda: TASK_PACKAGES)
# The app every thread of every process sends through (games.dispatch asks celery for
# the current app instead of importing this wiring module).
app.set_default()
# Re-enqueue what a broker outage lost, each time a worker (re)connects.
app.steps["consumer"].add(ResumeAfterConnect)


@signals.worker_init.connect
def _lower_priority(**_kwargs) -> None:
    """Beside web processes on the same cores, the sockets' acks come first (WORKER_NICE).
    In the main thread before the pool starts: Linux keeps a nice value per thread, and
    the pool's threads inherit it."""
    from django.conf import settings

    if settings.WORKER_NICE > 0:
        os.nice(settings.WORKER_NICE)


@signals.worker_ready.connect
def _freeze_startup_heap(**_kwargs) -> None:
    """The tasks, engines and bots are loaded: out of the garbage collector's way
    (infra/startup_heap.py; a bot's search allocates fast, and a full collection walked
    the whole heap)."""
    startup_heap.freeze()
