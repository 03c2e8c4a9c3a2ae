"""Settings of the Celery workers' processes (their pool and CPU priority), imported at
the end of config/settings.py."""

from config.env import env_int, env_str

# Threads, not prefork: Celery's Django fix-up closes the whole connection pool after each
# task in a prefork child, which would bring back a new session per task. A bot turn is
# short and waits on PostgreSQL; more cores are used by more worker processes.
CELERY_WORKER_POOL = env_str("CELERY_WORKER_POOL", "threads")
CELERY_WORKER_CONCURRENCY = env_int("CELERY_WORKER_CONCURRENCY", 4)
# A worker lowers its own CPU priority by this much (nice) as it starts: where it shares
# cores with web processes, a player's move is acknowledged first and a bot's search, an
# analysis or a scoring waits a moment (docs/operations.md; 0 keeps the default).
WORKER_NICE = env_int("WORKER_NICE", 5)
