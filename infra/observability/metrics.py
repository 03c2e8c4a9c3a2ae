"""The service's own metric families (Prometheus), and the one-line calls that feed them.

Every web process and Celery worker writes its samples to files in
``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess mode, chosen by that
variable when prometheus_client is first imported: scripts/run.sh and
scripts/serve_web.sh set it); the exporter (infra/observability/exporter.py) adds them up
at scrape time. Without the variable each process counts in its own memory (tests,
manage.py), which nobody scrapes.

An update is a few microseconds (a locked write into a memory-mapped file), so the hot
paths call these directly. Labels are bounded: games, error codes, bot levels, queues,
throttle scopes, socket kinds. Never a match id or a user: that would be one series each.
HTTP requests are counted by django-prometheus (infra/observability/http_metrics.py).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

#: seconds; a move over REST or a socket takes milliseconds, a bot's search up to 1.5 s
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                10.0)

MOVES_COMMITTED = Counter(
    "game_moves_committed_total",
    "Moves appended to a match's log (committed), by game and by who moved (player, bot).",
    ["game", "mover"])
MOVE_REFUSALS = Counter(
    "game_move_refusals_total",
    "Moves the move service refused, by error code (stale_ply, not_your_turn, ...) and by "
    "who moved (player; bot: a bot turn that found the match moved on, a harmless no-op).",
    ["code", "mover"])
BOT_THINK_SECONDS = Histogram(
    "game_bot_think_seconds", "Time a bot took to choose its move, by level.",
    ["level"], buckets=FAST_BUCKETS)
TASK_WAIT_SECONDS = Histogram(
    "celery_task_wait_seconds",
    "Time from a task's publication to the start of its run, by queue and task.",
    ["queue", "task"], buckets=FAST_BUCKETS)
#: a task's run: milliseconds for a bot turn or the scoring, minutes for a post-game
#: analysis (games/analysis/, its own queue), which FAST_BUCKETS would put all past 10 s
RUN_BUCKETS = (*FAST_BUCKETS, 30.0, 60.0, 120.0, 300.0, 600.0)
TASK_RUN_SECONDS = Histogram(
    "celery_task_run_seconds", "Time a task ran, by queue, task and outcome.",
    ["queue", "task", "outcome"], buckets=RUN_BUCKETS)
PLAY_MOVE_ANSWER_SECONDS = Histogram(
    "play_move_answer_seconds",
    "A move over the play socket, from its frame read to its answer queued on the socket "
    "(the wait for a play thread and the commit included), by outcome (ack, refused).",
    ["outcome"], buckets=FAST_BUCKETS)
OPEN_SOCKETS = Gauge(
    "websocket_connections_open", "Websockets open now, by kind (play, graphql).",
    ["socket"], multiprocess_mode="livesum")
OPEN_SUBSCRIPTIONS = Gauge(
    "websocket_subscriptions_open",
    "Match subscriptions open now over websockets, by kind (play, graphql).",
    ["socket"], multiprocess_mode="livesum")
THROTTLE_REFUSALS = Counter(
    "throttle_refusals_total", "Requests refused by a rate limit (429), by scope.",
    ["scope"])
DB_POOL_CONNECTIONS = Gauge(
    "db_pool_connections",
    "PostgreSQL sessions held by the processes' pools, by state (in_use, idle).",
    ["state"], multiprocess_mode="livesum")
DB_POOL_MAX = Gauge(
    "db_pool_max_connections", "The most sessions the processes' pools may open.",
    multiprocess_mode="livesum")
DB_POOL_WAITING = Gauge(
    "db_pool_requests_waiting", "Requests waiting for a pooled session now.",
    multiprocess_mode="livesum")
DB_POOL_WAITS = Counter(
    "db_pool_wait_seconds",
    "Total time requests waited for a pooled session (rate: seconds waited per second).")

PLAY, GRAPHQL = "play", "graphql"


def move_committed(game: str, *, by_bot: bool) -> None:
    MOVES_COMMITTED.labels(game, "bot" if by_bot else "player").inc()


def move_refused(code: str, *, by_bot: bool) -> None:
    MOVE_REFUSALS.labels(code, "bot" if by_bot else "player").inc()


def play_move_answered(seconds: float, *, acknowledged: bool) -> None:
    PLAY_MOVE_ANSWER_SECONDS.labels("ack" if acknowledged else "refused").observe(seconds)


def throttled(scope: str) -> None:
    THROTTLE_REFUSALS.labels(scope).inc()


def socket_opened(kind: str) -> None:
    OPEN_SOCKETS.labels(kind).inc()


def socket_closed(kind: str) -> None:
    OPEN_SOCKETS.labels(kind).dec()


def subscribed(kind: str, count: int = 1) -> None:
    OPEN_SUBSCRIPTIONS.labels(kind).inc(count)


def unsubscribed(kind: str, count: int = 1) -> None:
    OPEN_SUBSCRIPTIONS.labels(kind).dec(count)
