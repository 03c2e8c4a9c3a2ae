"""Settings of issue 14: pooled connections and the Celery queues, as every process
(web, worker, tests) loads them."""

from django.conf import settings
from django.db import connection

from config.celery import app as celery_app


def test_every_process_uses_a_connection_pool_sized_from_settings():
    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]
    assert 1 <= pool["min_size"] <= pool["max_size"]
    # Django refuses persistent connections beside a pool; 0 is the only valid value.
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 0
    assert connection.pool is not None


def test_bot_turns_have_their_own_queue_and_a_worker_consumes_both():
    route = settings.CELERY_TASK_ROUTES["games.tasks.play_bot_turn"]
    assert route["queue"] == settings.CELERY_BOT_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    consumed = {queue.name for queue in settings.CELERY_TASK_QUEUES}
    assert consumed == {settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_BOT_QUEUE}
    # scoring and the sweep stay on the default queue
    assert "games.tasks.score_match" not in settings.CELERY_TASK_ROUTES
    assert "games.tasks.sweep_stalled_matches" not in settings.CELERY_TASK_ROUTES
    # threads: Celery's Django fix-up would close the whole pool after each prefork task
    assert celery_app.conf.worker_pool == "threads"
