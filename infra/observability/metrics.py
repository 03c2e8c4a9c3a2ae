"""The service's own metric families (Prometheus), and the one-line calls that feed them.

Every web process and Celery worker writes its samples to files in
``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess mode, chosen by that
variable when prometheus_client is first imported: scripts/run.sh and
scripts/serve_web.sh set it); the exporter (infra/observability/exporter.py) adds them up
at scrape time. Without the variable each process counts in its own memory (tests,
manage.py), which nobody scrapes.

An update is a few microseconds (a locked write into a memory-mapped file), so the hot
paths call these directly. Labels are bounded: games, error codes, bot levels, queues,
throttle scopes, socket kinds, and third-party apps (at most APP_LABELS of them per
process, ``app_label``). Never a match id or a user: that would be one series each.
HTTP requests are counted by django-prometheus (infra/observability/http_metrics.py).
"""

from __future__ import annotations

import threading

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

APP_REQUESTS = Counter(
    "app_requests_total",
    "Requests (REST calls, GraphQL operations, play-socket messages) by the app whose "
    "token made them (app_label: an app id, other, personal-token, first-party or "
    "anonymous), by transport.",
    ["app", "transport"])
APP_ERRORS = Counter(
    "app_errors_total",
    "Requests answered with an error (REST: a 4xx or 5xx; GraphQL: an operation with "
    "errors; the play socket: a message refused for its scope, or a refused move), by app "
    "and transport.",
    ["app", "transport"])
APP_MOVES = Counter(
    "app_moves_total", "Moves played (acknowledged) with an app's token, by app.", ["app"])

HTTP_RESPONSES = Counter(
    "http_responses_total",
    "HTTP answers of the web tier by status class (2xx, 3xx, 4xx, 5xx), every route "
    "together: created at zero at start, so the first 5xx is a rise that rate() sees.",
    ["status_class"])

PLAY, GRAPHQL, REST = "play", "graphql", "rest"
STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")

#: how many apps a process labels by id; the apps seen later share "other"
APP_LABELS = 50
FIRST_PARTY, ANONYMOUS, OTHER_APPS = "first-party", "anonymous", "other"
PERSONAL_TOKEN = "personal-token"
_labelled_apps: set[int] = set()
_labelled_lock = threading.Lock()


def app_label(user, auth) -> str:
    """The ``app`` label of a request: its app's id for the first APP_LABELS apps this
    process sees (the active ones: an app is seen when it calls), "other" past them,
    "personal-token" for a scoped token of no app, "first-party" for the service's own
    tokens and sessions, "anonymous" without any. Bounded: at most APP_LABELS + 4 values
    per process."""
    app_id = getattr(auth, "application_id", None)
    if app_id is None:
        if isinstance(getattr(auth, "scope", None), str):
            return PERSONAL_TOKEN  # scoped but of no app: a player's own script or bot
        signed_in = user is not None and getattr(user, "is_authenticated", False)
        return FIRST_PARTY if signed_in else ANONYMOUS
    if app_id not in _labelled_apps:
        with _labelled_lock:
            if len(_labelled_apps) >= APP_LABELS:
                return OTHER_APPS
            _labelled_apps.add(app_id)
    return str(app_id)


def app_request(app: str, transport: str, *, failed: bool = False) -> None:
    APP_REQUESTS.labels(app, transport).inc()
    if failed:
        APP_ERRORS.labels(app, transport).inc()


def app_error(app: str, transport: str) -> None:
    APP_ERRORS.labels(app, transport).inc()


def app_move(app: str) -> None:
    APP_MOVES.labels(app).inc()


def http_answered(status: int) -> None:
    HTTP_RESPONSES.labels(f"{status // 100}xx").inc()


def create_known_series() -> None:
    """Every labelled counter at zero for the labels known at start (issue 40): a series
    that first appears at its final value is invisible to ``rate``/``increase`` (seven
    real 5xx never showed on the 5xx panel). Called as each web process and worker
    starts. Labels known only as they happen (a refusal's code, an app's id, a route's
    status) still appear at their first count: alert on the families created here."""
    from rest_framework.settings import api_settings

    from rules.registry import available_games

    for status_class in STATUS_CLASSES:
        HTTP_RESPONSES.labels(status_class)
    for game in available_games():
        for mover in ("player", "bot"):
            MOVES_COMMITTED.labels(game, mover)
    for scope in api_settings.DEFAULT_THROTTLE_RATES:
        THROTTLE_REFUSALS.labels(scope)
    for app in (FIRST_PARTY, ANONYMOUS, PERSONAL_TOKEN):
        APP_MOVES.labels(app)
        for transport in (REST, GRAPHQL, PLAY):
            APP_REQUESTS.labels(app, transport)
            APP_ERRORS.labels(app, transport)
    for outcome in ("ack", "refused"):
        PLAY_MOVE_ANSWER_SECONDS.labels(outcome)


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
