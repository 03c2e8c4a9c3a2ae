"""A Celery worker loads only what it runs (issue 45; docs/capacity.md "Memory"): a real
worker, started as tests start every worker (``python -m celery -A config worker``), is
ready with its tasks loaded but without daphne's twisted, the GraphQL and OpenAPI apps,
or the URL configuration with its views and GraphQL schema (its start checks leave the URL
checks to the web tier)."""

from __future__ import annotations

import json
import time

import pytest

from tests.workers import start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)

# (drf_spectacular's decorators do load: the serializers a task uses carry them)
NOT_IN_A_WORKER = ("twisted", "daphne", "strawberry", "strawberry_django", "config.urls",
                   "games.graphql.schema", "games.api.urls")


def test_a_ready_worker_holds_its_tasks_and_none_of_the_web_tier(tmp_path):
    loaded_file = tmp_path / "modules.json"
    worker = start_worker(tmp_path / "worker.log", "imports",
                          include=("tests.config.loaded_modules_probe",),
                          env={"LOADED_MODULES_FILE": str(loaded_file)})
    try:
        deadline = time.monotonic() + 90
        while not loaded_file.exists() or not loaded_file.read_text():
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the worker was not ready in 90 s"
            time.sleep(0.3)
        time.sleep(0.2)  # the file written to its end
        loaded = set(json.loads(loaded_file.read_text()))
    finally:
        stop_worker(worker)
    assert {"games.matches.tasks", "games.clocks.tasks", "django.contrib.auth.models"} <= loaded
    assert not [name for name in loaded
                if name in NOT_IN_A_WORKER or name.split(".")[0] in NOT_IN_A_WORKER]
