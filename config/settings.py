"""Django settings. Every value comes from the environment (config/env.py) with defaults
that match the project-local PostgreSQL and Redis started by scripts/services.sh."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_int, env_list, env_str, is_raw_key

BASE_DIR = Path(__file__).resolve().parent.parent

# Safe by default: DEBUG is off unless the environment turns it on (`make run` does, for
# local development only). With DEBUG off the development key is refused, so a deployment
# that forgot SECRET_KEY fails at start instead of signing sessions with a public key.
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is the development key while DEBUG is off: set SECRET_KEY "
        "(or DEBUG=true for local development only)"
    )
# Game records are signed by the service (docs/records.md "Signatures"): Ed25519 private
# keys, each the base64 of its 32 raw bytes, comma-separated; the first signs, the others
# are older keys still published so that records signed before a rotation verify
# (docs/operations.md "Record signing keys"). Like SECRET_KEY, the development key is
# public: with DEBUG off it is refused, and so is a missing value.
DEVELOPMENT_RECORD_SIGNING_KEY = "UaojRkcp5EqHXFr+5t6tnyv9aZrFiNdmbqJ+38upAjM="
RECORD_SIGNING_KEYS = env_list("RECORD_SIGNING_KEYS", "") or (
    [DEVELOPMENT_RECORD_SIGNING_KEY] if DEBUG else [])
if not RECORD_SIGNING_KEYS or (not DEBUG
                               and DEVELOPMENT_RECORD_SIGNING_KEY in RECORD_SIGNING_KEYS):
    raise ImproperlyConfigured(
        "RECORD_SIGNING_KEYS is unset or holds the development key while DEBUG is off: set "
        "it to the base64 of 32 random bytes (`manage.py record_signing_key`), or "
        "DEBUG=true for local development only"
    )
if not all(is_raw_key(key, 32) for key in RECORD_SIGNING_KEYS):
    raise ImproperlyConfigured(
        "RECORD_SIGNING_KEYS: every key is the standard base64 of 32 bytes (an Ed25519 "
        "private key), comma-separated"
    )
# Error pages and reports never show credentials (settings, tokens, sessions), DEBUG on
# or off: see infra/debug_filter.py.
DEFAULT_EXCEPTION_REPORTER_FILTER = "infra.debug_filter.SecretsNeverShownFilter"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

# daphne's app does one thing: `manage.py runserver` serves ASGI (websockets included).
# Installed everywhere, it loaded twisted into every web and worker process: 33 MB each
# (issue 45, docs/capacity.md "Memory"). The tests run daphne's own command instead.
SERVES_WITH_RUNSERVER = sys.argv[1:2] == ["runserver"]
# Apps without models that only the web tier uses (GraphQL, the OpenAPI document and its
# pages): a Celery process, which serves neither, does not load them (strawberry alone is
# 31 MB; issue 45). Their code stays importable where a task reaches it.
WEB_ONLY_APPS = ["drf_spectacular", "drf_spectacular_sidecar", "strawberry_django"]
# `celery ...` or `python -m celery ...`
RUNS_CELERY = "celery" in (Path(sys.argv[0]).name, Path(sys.argv[0]).parent.name)

INSTALLED_APPS = [
    *(["daphne"] if SERVES_WITH_RUNSERVER else []),
    # django.contrib.admin, whose site changes passwords as the database role allows
    "accounts.admin_apps.GameAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "corsheaders",
    # Swagger UI and ReDoc assets served by us, not a CDN (drf_spectacular_sidecar)
    *([] if RUNS_CELERY else WEB_ONLY_APPS),
    "channels",
    "django_prometheus",  # metrics: config/observability_settings.py
    "oauth2_provider",  # third-party apps' OAuth 2 (config/oauth_settings.py)
    "accounts",
    "accounts.apps_oauth.apps.AppsOAuthConfig",
    "games",
]

MIDDLEWARE = [
    "infra.observability.http_metrics.RouteMetricsMiddleware",  # observability_settings.py
    "infra.observability.request_id.RequestIdMiddleware",
    # The probes (/health/live, /health/ready) before anything that checks ALLOWED_HOSTS or
    # redirects to HTTPS: infra/probes.py, docs/operations.md "Probes".
    "infra.probes.ProbesMiddleware",
    # One access line per request, with its id; the probes answer above it, unlogged.
    "infra.observability.access_log.AccessLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before CommonMiddleware, so preflights and redirects carry the CORS headers.
    "corsheaders.middleware.CorsMiddleware",
    # After CORS (a browser must be able to read the refusal): 413 payload_too_large.
    "infra.request_limits.PayloadTooLargeMiddleware",
    # The API's URL policy (infra/url_policy.py, infra/json_errors.py): never an HTML
    # error page under /api/ or /graphql, and both spellings (trailing slash or not) of
    # every endpoint served, so APPEND_SLASH never redirects (or 500s on) an API request.
    "infra.json_errors.JsonApiErrorsMiddleware",
    "infra.url_policy.SlashPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's order): ?lang= or Accept-Language.
    "infra.language.RequestLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Without DATABASE_URL / REDIS_URL, the project-local services on PG_PORT / REDIS_PORT (as
# scripts/services.sh and the Makefile use them), so every manage.py command honours them.
DATABASE_URL = env_str(
    "DATABASE_URL", f"postgres://game:game@127.0.0.1:{env_int('PG_PORT', 54329)}/game"
)
DATABASES = {"default": database_from_url(DATABASE_URL)}
# Least privilege (docs/operations.md "Database roles"): DATABASE_URL is the runtime role,
# which owns nothing; migrations run as the owner (DATABASE_OWNER_URL: `make run`, compose,
# the test suite), which then grants this role its privileges (infra/database_roles.py).
DATABASE_RUNTIME_ROLE = env_str("DATABASE_RUNTIME_ROLE", "game")

REDIS_URL = env_str("REDIS_URL", f"redis://127.0.0.1:{env_int('REDIS_PORT', 63799)}/0")

# Shared by every web process: throttle counters must agree across them.
CACHE_TIMEOUT_SECONDS = float(env_str("CACHE_TIMEOUT_SECONDS", "0.25"))
CACHES = {
    "default": {
        # django-redis: one connection pool per process, kept connected between requests
        # (its close() disconnects only with the CLOSE_CONNECTION option); it costs no more
        # per move than our own shared-pool backend did (docs/capacity.md)
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": env_str("CACHE_REDIS_URL", REDIS_URL),
        "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "game"),
        # A Redis that is down or hung costs a request this long at most (a counter is a
        # sub-millisecond INCR), and then the rate limits count in the process for a while
        # (infra/counters.py): an outage costs milliseconds per request, not seconds.
        "OPTIONS": {
            "SOCKET_CONNECT_TIMEOUT": CACHE_TIMEOUT_SECONDS,
            "SOCKET_TIMEOUT": CACHE_TIMEOUT_SECONDS,
        },
    }
}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# English by default; German on request (Accept-Language: de, or ?lang=de: infra/language.py).
# Error codes never change with the language, only the messages.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Bodies larger than this are refused (413 payload_too_large); a move is a few hundred bytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_REQUEST_BYTES", 1024 * 1024)
# A GraphQL query or mutation stops resolving fields after this long (games/graphql/limits.py).
GRAPHQL_TIMEOUT_SECONDS = float(env_str("GRAPHQL_TIMEOUT_SECONDS", "5"))

# An open websocket or stream asks the database whether its token still stands before it
# sends anything private, once its last check is older than this (accounts/revocation.py):
# the bound on how long a revocation whose announcement was lost (Redis down) goes unheard.
ACCESS_RECHECK_SECONDS = float(env_str("ACCESS_RECHECK_SECONDS", "5"))

# Games beyond the built-in two (plugins, issue 10): EXTRA_GAMES="name=package.module:Class,..."
# registers each engine with rules.registry at start-up (games/apps.py); the tests register
# a tiny third game this way. "name@version=module:Class" keeps an older rules version of
# a plugin game replayable (rules/versions.py).
EXTRA_GAMES = {
    name.strip(): path.strip()
    for name, _, path in (
        entry.partition("=") for entry in env_str("EXTRA_GAMES", "").split(",") if entry.strip()
    )
}

# Cross-origin browsers: REST and GraphQL (the websocket origin check reads the same list).
# Only the token header authenticates a cross-origin call, so no cookies cross origins.
# CORS_ALLOWED_ORIGINS names the production frontends; in development (DEBUG) a page on
# any loopback port may call too, whatever that list says, so a dev server on a new port
# never meets a refusal the production settings would not give it.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", "")
LOOPBACK_ORIGIN_REGEX = r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$"
CORS_ALLOWED_ORIGIN_REGEXES = [LOOPBACK_ORIGIN_REGEX] if DEBUG else []
CORS_URLS_REGEX = r"^/(api|graphql|oauth)(/.*)?$"
CORS_ALLOW_CREDENTIALS = False
# Every request header the docs offer a client: the token, JSON bodies, ETag polling
# (If-None-Match), resuming the feed stream (Last-Event-ID) and the language.
CORS_ALLOW_HEADERS = ("accept", "accept-language", "authorization", "content-type",
                      "if-none-match", "last-event-id", "x-csrftoken", "x-requested-with")
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "Content-Language", "X-Request-Id"]
CORS_PREFLIGHT_MAX_AGE = 600

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / ".var" / "static"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # DRF's TokenAuthentication in one fixed statement (accounts/token_auth.py)
        "accounts.token_auth.NarrowTokenAuthentication",
        # OAuth 2 access tokens and personal access tokens (accounts/apps_oauth/)
        "accounts.apps_oauth.bearer_auth.BearerAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # JSON only (issue 10): no endpoint takes a form or a file, and one body format keeps
    # generated clients simple; a form post is 415 unsupported_media_type.
    "DEFAULT_PARSER_CLASSES": ["infra.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "infra.api_errors.api_exception_handler",
    # Rates per client (user id, or address when anonymous); the load test raises them.
    "DEFAULT_THROTTLE_RATES": {
        "anon_read": env_str("THROTTLE_ANON_READ", "120/min"),
        "user_read": env_str("THROTTLE_USER_READ", "600/min"),
        "move": env_str("THROTTLE_MOVE", "120/min"),
        "auth": env_str("THROTTLE_AUTH", "10/min"),
        # a play socket's hello with a token already issued (no password: a reconnect),
        # per address: after a rolling restart every socket behind one address (an
        # office, a carrier NAT) signs in again at once (issue 40; docs/limits.md)
        "socket_auth": env_str("THROTTLE_SOCKET_AUTH", "300/min"),
        # board.png: rasterising costs some 30 times the SVG's CPU (bench/board_pictures.py)
        "picture": env_str("THROTTLE_PICTURE", "60/min"),
        # every request made with a third-party app's token, all its users together
        # (infra/throttles.py): an app's default tier; named tiers below
        "app": env_str("THROTTLE_APP", "3000/min"),
    },
}
# An app's optional rate-limit tier (its ``rate_tier``: the admin offers "standard" and
# "high", App.RateTier) names one of these rates; THROTTLE_APP_TIERS="high=30000/min".
# "standard", no tier or an unknown one gets "app"'s.
APP_RATE_TIERS = {
    name.strip(): rate.strip()
    for name, _, rate in (item.partition("=")
                          for item in env_list("THROTTLE_APP_TIERS", "high=30000/min"))
    if name.strip() and rate.strip()
}

# Rate limits (infra/throttles.py; GraphQL: games/graphql/throttling.py), counted in the
# Redis cache. NUM_PROXIES: how many trusted proxies append to X-Forwarded-For (0: the
# header is ignored, so a client cannot invent addresses to dodge a limit).
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = ["infra.throttles.ApiRateThrottle"]
REST_FRAMEWORK["NUM_PROXIES"] = env_int("NUM_PROXIES", 0)
# The proxies whose X-Forwarded-For uvicorn believes (scripts/serve_web.sh passes the same
# variable to --forwarded-allow-ips): read here only for config.E004, which refuses "*"
# with DEBUG off (infra/config_checks.py; docs/operations.md "docker compose").
FORWARDED_ALLOW_IPS = env_list("FORWARDED_ALLOW_IPS", "127.0.0.1")

# GraphiQL at /graphql/ (assets in games/static/graphiql/): on like Swagger UI (the schema
# is public anyway); GRAPHIQL=false hides it.
GRAPHIQL = env_bool("GRAPHIQL", True)

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL)
# kombu's Redis transport, minus a new Redis client per command (config/celery_transport.py);
# another broker (sentinel, TLS, ...) keeps kombu's own transport for its scheme
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "config.celery_transport:Transport"

# Bots (issue 12): a search level stops at its iteration budget, or at its wall-clock
# backstop (at most 6 s: rules/bots/registry.py); past this soft limit (prefork workers) a
# bot turn plays the search's best move so far, or greedy's (games/matches/bot_turns.py),
# and a turn of several quick moves stops playing on in one task at half of it
# (games/matches/bot_moves.py). The iteration cap, when set, lowers every search level's
# iterations (tests, slow machines).
BOT_TURN_SOFT_TIME_LIMIT = float(env_str("BOT_TURN_SOFT_TIME_LIMIT", "8"))
_bot_cap = env_str("BOT_SEARCH_ITERATION_CAP", "")
BOT_SEARCH_ITERATION_CAP = int(_bot_cap) if _bot_cap else None

# Live pushes (subscriptions, the feed stream) through Redis. The layer waits a Redis
# outage out and rejoins its groups after it (infra/channel_layer.py); its sockets time out
# so that a hung Redis fails a publish in a second (a blocking receive waits 5 s, inside
# the 10 s read timeout).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "infra.channel_layer.ResilientRedisChannelLayer",
        "CONFIG": {"hosts": [{
            "address": env_str("CHANNEL_REDIS_URL", REDIS_URL),
            "socket_connect_timeout": 1,
            "socket_timeout": 10,
            "socket_keepalive": True,
        }]},
    },
}

# -- capacity (issue 14): pooled connections, Celery queues and concurrency -----------------
# Every web and worker process keeps a psycopg pool instead of opening a PostgreSQL session
# per request or task (12-14 ms each, measured). Django hands a pooled connection to each
# request or task and takes it back at the end (CONN_MAX_AGE must stay 0 with a pool).
# Size: a process never holds more than DB_POOL_MAX_SIZE sessions, so PostgreSQL needs
# max_connections above (web processes + worker processes) x DB_POOL_MAX_SIZE.
# DB_POOL=false falls back to one connection per request (e.g. behind pgbouncer).
if env_bool("DB_POOL", True):
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": env_int("DB_POOL_MIN_SIZE", 2),
            "max_size": env_int("DB_POOL_MAX_SIZE", 8),
            # seconds a request waits for a free connection before failing (a 500 is
            # better than a queue that never drains)
            "timeout": env_int("DB_POOL_TIMEOUT", 10),
            # sessions idle this long are closed down to min_size
            "max_idle": env_int("DB_POOL_MAX_IDLE", 300),
        }
    }

# The hottest fixed statements (token, a match's lock and read, a move's writes, the 304
# check) are prepared server-side, once per session (infra/prepared.py); the ORM's own
# cursors bind on the client and never prepare. Behind a pooler that cannot keep them
# (pgbouncer in transaction mode before 1.21), set DB_PREPARED_STATEMENTS=false.
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
    0 if env_bool("DB_PREPARED_STATEMENTS", True) else None)

# The runtime role's bounds (issue 40; docs/operations.md "Database roles"): one match's
# row lock held 15 s made every move on it, and a health probe, wait 14 s. A statement
# waits at most DATABASE_LOCK_TIMEOUT_MS for a lock and runs at most
# DATABASE_STATEMENT_TIMEOUT_MS; past either, its transaction is rolled back and the API
# answers 503 ``database_busy`` (infra/api_errors.py). Set on the runtime role's sessions
# only: the owner's migrations may take long locks (0 turns a bound off).
DATABASE_STATEMENT_TIMEOUT_MS = env_int("DATABASE_STATEMENT_TIMEOUT_MS", 10000)
DATABASE_LOCK_TIMEOUT_MS = env_int("DATABASE_LOCK_TIMEOUT_MS", 2000)
RUNTIME_SESSION_OPTIONS = (f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT_MS} "
                           f"-c lock_timeout={DATABASE_LOCK_TIMEOUT_MS}")
if DATABASES["default"]["USER"] == DATABASE_RUNTIME_ROLE:
    DATABASES["default"]["OPTIONS"]["options"] = RUNTIME_SESSION_OPTIONS

# Web processes serve plain HTTP through Django's WSGI handler in WEB_THREADS threads each
# (config/http_split.py); a thread holds a pooled connection while it serves, so keep
# WEB_THREADS <= DB_POOL_MAX_SIZE. Two, because our requests are short and CPU-bound: more
# threads per process only contend for the interpreter's lock (side by side at 16 and 64
# clients, 8 threads served 94-201 moves/s at 8-12 ms of CPU each, 2 threads 215-267 at
# 6.4-8 ms: docs/capacity.md). Scale with processes (WEB_PROCESSES), not threads.
WEB_THREADS = env_int("WEB_THREADS", 2)
# Served by Django's ASGI handler instead (regular expressions matched at the start of the
# path): async views (the feed stream), responses streamed from an asynchronous iterator
# (the records export) and the static files.
ASYNC_HTTP_PATHS = (r"/api/v1/stream", r"/api/v1/users/[^/]+/records",
                    re.escape(f"/{STATIC_URL.lstrip('/')}"))

QUICK_MATCH_TTL_SECONDS = env_int("QUICK_MATCH_TTL_SECONDS", 600)  # a request's wait

# -- GraphQL: operations that take a slot (issues 21, 39): games/graphql/concurrency.py ---
# Every operation whose estimated cost reaches GRAPHQL_EXPENSIVE_COST (units of 0.05 ms of
# work measured under contention: games/graphql/field_weights.py), whatever its fields,
# needs one of its client's and one of its web process's slots, or is refused at once
# (too_many_concurrent). 600 is 30 ms: what a cheap request may wait behind one operation
# that took no slot (at 1,000, sixteen clients sending three records each, under it, held
# the health check for over a second: docs/capacity.md), and above every single ordinary
# mutation (joining, 401; starting, 512), so a player's routine is never refused for a
# slot. One thread of each process stays free for cheap requests by default.
GRAPHQL_EXPENSIVE_COST = env_int("GRAPHQL_EXPENSIVE_COST", 600)
GRAPHQL_EXPENSIVE_PER_CLIENT = env_int("GRAPHQL_EXPENSIVE_PER_CLIENT", 1)
GRAPHQL_EXPENSIVE_PER_PROCESS = env_int("GRAPHQL_EXPENSIVE_PER_PROCESS",
                                        max(1, WEB_THREADS - 1))
# ... and at most this share of its time, over time: after an expensive operation of d
# seconds a process takes the next one d x (1 - share) / share later at the earliest.
GRAPHQL_EXPENSIVE_SHARE = float(env_str("GRAPHQL_EXPENSIVE_SHARE", "0.5"))

# The analysis, Celery, the chat, HTTPS, the play socket, metrics and logs (LOGGING), workers: own
# modules.
from config.analysis_settings import *  # noqa: E402,F401,F403
from config.api_schema_settings import *  # noqa: E402,F401,F403
from config.celery_settings import *  # noqa: E402,F401,F403
from config.chat_settings import *  # noqa: E402,F401,F403
from config.https_settings import *  # noqa: E402,F401,F403
from config.mail_settings import *  # noqa: E402,F401,F403
from config.notification_settings import *  # noqa: E402,F401,F403
from config.oauth_settings import *  # noqa: E402,F401,F403
from config.observability_settings import *  # noqa: E402,F401,F403
from config.play_settings import *  # noqa: E402,F401,F403
from config.webhook_settings import *  # noqa: E402,F401,F403
from config.worker_settings import *  # noqa: E402,F401,F403
