"""Celery's settings (tasks, queues, the beat schedule, workers that survive their
broker), imported at the end of config/settings.py; the broker's URL and transport stay
there, beside REDIS_URL."""

from celery.schedules import crontab
from kombu import Queue

from config.env import env_bool, env_int, env_str
from config.mail_settings import MAIL_DIGEST_HOUR_UTC, MAIL_SWEEP_SECONDS
from config.webhook_settings import WEBHOOK_DRAIN_SWEEP_SECONDS, WEBHOOK_OVERDUE_SWEEP_SECONDS

CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "games")
# The clock sweep also sends the deadline tasks that come within the ETA horizon (half the
# visibility timeout below: games.dispatch.eta_horizon), so it must come at least once per
# horizon, or a deadline could pass unarmed (then the next sweep times it out, late).
CLOCK_SWEEP_INTERVAL_SECONDS = float(env_str("CLOCK_SWEEP_INTERVAL_SECONDS", "15"))
CELERY_BEAT_SCHEDULE = {
    "sweep-stalled-matches": {
        "task": "games.tasks.sweep_stalled_matches",
        "schedule": float(env_str("SWEEP_INTERVAL_SECONDS", "60")),
    },
    # Quick match (games/quickmatch/): pairs after every request; this also expires them.
    "pair-quick-matches": {
        "task": "games.quickmatch.tasks.pair_waiting",
        "schedule": float(env_str("QUICK_MATCH_INTERVAL_SECONDS", "5")),
    },
    # Clocks (games/clocks/): deadline tasks run at their ETA; this catches any that was
    # lost, and sends those of deadlines that were beyond the ETA horizon when set.
    "sweep-expired-clocks": {
        "task": "games.clocks.tasks.sweep_expired_clocks",
        "schedule": CLOCK_SWEEP_INTERVAL_SECONDS,
    },
    # Turn-based reminders (games/notifications/reminders.py): once per deadline and seat.
    "send-reminders": {
        "task": "games.notifications.tasks.send_reminders",
        "schedule": float(env_str("REMINDER_SWEEP_INTERVAL_SECONDS", "300")),
    },
    # Players' e-mail (games/mail/): mails that came due ("your turn" after its wait, a
    # retry), and the daily digest.
    "send-due-mails": {
        "task": "games.mail.tasks.send_due",
        "schedule": MAIL_SWEEP_SECONDS,  # config/mail_settings.py
    },
    # Webhooks (games/webhooks/batches.py): the push that finds the events' list empty
    # sends a drain; this one catches a list whose drain task a broker outage lost.
    "drain-webhook-events": {
        "task": "games.webhooks.tasks.drain_events",
        "schedule": WEBHOOK_DRAIN_SWEEP_SECONDS,  # config/webhook_settings.py
    },
    # ... and deliveries whose deliver task a broker outage lost (games/webhooks/overdue.py)
    "resend-overdue-webhooks": {
        "task": "games.webhooks.tasks.resend_overdue",
        "schedule": WEBHOOK_OVERDUE_SWEEP_SECONDS,
    },
    "send-mail-digests": {
        "task": "games.mail.tasks.send_digests",
        "schedule": crontab(minute=0, hour=MAIL_DIGEST_HOUR_UTC),
    },
}

# --- Workers that survive their broker (issue 9; docs/operations.md "Worker resilience").
# A Redis outage is waited out: the worker reconnects forever (never exits after N tries),
# also when Redis is down at start. Running tasks whose ack can no longer reach Redis are
# cancelled at the loss (celery 6's default): their transaction rolls back and the work is
# redone from the database (games/matches/worker_steps.py re-enqueues it on every reconnect).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# celery's consumer, minus the crash of celery 5.7.0 when Redis drops while a task runs.
CELERY_WORKER_CONSUMER = "config.celery_consumer:Consumer"
# A message delivered to a worker that dies (kill -9, OOM, lost host) stays "unacked" in
# Redis until the visibility timeout, then a live worker requeues it. It must exceed our
# longest task (a bot's turn: a search's backstop is at most 6 s, and a turn of several
# quick moves stops playing on at half of BOT_TURN_SOFT_TIME_LIMIT, games/matches/
# bot_moves.py) plus the largest retry countdown (10 s: games/task_options.py); kombu's
# default hour left a killed worker's match stalled.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 30)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # kombu checks for expired unacked messages every interval * throttle seconds
    # (default 10 * 10): every 2 s here, one cheap ZRANGE under a mutex.
    "unacked_restore_interval": 2,
    "unacked_restore_throttle": 1,
    # The scan runs under a Redis lock; a worker killed while holding it would block
    # every other worker's scan for kombu's default 300 s.
    "unacked_mutex_expire": 10,
    # A dead or unreachable Redis fails a call in seconds instead of hanging it (web
    # requests publish tasks too: the move that finds an outage waits two connection
    # attempts, and later ones skip their sends, games/dispatch.py); BRPOP waits 1 s, well
    # inside socket_timeout.
    "socket_connect_timeout": 1,
    "socket_timeout": 10,
    "socket_keepalive": True,
    "health_check_interval": 10,
}

# Bot turns have their own queue, so scoring and the stall sweep never wait behind a burst
# of bot moves; a worker consumes both unless told otherwise (-Q).
CELERY_BOT_QUEUE = env_str("CELERY_BOT_QUEUE", "bots")
CELERY_TASK_ROUTES = {"games.tasks.play_bot_turn": {"queue": CELERY_BOT_QUEUE}}
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(CELERY_BOT_QUEUE))
# Post-game analyses (config/analysis_settings.py) run minutes each: their own queue, not in
# CELERY_TASK_QUEUES, so bot turns, scoring and deadlines never wait behind one; a worker
# of its own (`-Q analysis --concurrency=1`: scripts/run.sh, docker-compose.yml) serves it.
CELERY_ANALYSIS_QUEUE = env_str("CELERY_ANALYSIS_QUEUE", "analysis")
CELERY_TASK_ROUTES["games.analysis.tasks.*"] = {"queue": CELERY_ANALYSIS_QUEUE}
