"""The Celery app. Tasks live in each app's tasks.py and are found by autodiscovery."""

import os

from celery import Celery

from games.worker_steps import ResumeAfterConnect

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("game_service")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Re-enqueue what a broker outage lost, each time a worker (re)connects.
app.steps["consumer"].add(ResumeAfterConnect)
