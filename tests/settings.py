"""Settings for the test suite: the project's own settings (DEBUG off, as in production)
with a test-only secret key and record signing key, since config/settings.py refuses the
development keys when DEBUG is off. Subprocesses the tests start (daphne, Celery) inherit
the variables.

The suite connects as the database owner (DATABASE_OWNER_URL, when set): pytest-django
creates, migrates and flushes (TRUNCATE) the test database, which the runtime role may
not. The runtime role's credentials stay in RUNTIME_DATABASE: the Celery workers the
tests start connect with them, and tests/infra/test_database_roles.py checks what they allow."""

import os
from urllib.parse import urlsplit

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-never-used-by-a-server")
# the same for the records' signing key (a test-only key, never a server's)
os.environ.setdefault("RECORD_SIGNING_KEYS", "Tl4ile/L5hTF/RDBIV6tFfHfea4nJD56qO2orFoTmbo=")
# apps registered by the tests redirect to http on loopback (production: https only)
os.environ.setdefault("OAUTH_HTTP_REDIRECTS", "true")
# webhooks: the tests' local receiver is plain http on 127.0.0.1 (games/webhooks/addresses.py;
# the refusal tests turn the allow-list off); quick retries, no cached "any endpoint?"
os.environ.setdefault("WEBHOOK_HTTP_URLS", "true")
os.environ.setdefault("WEBHOOK_ALLOWED_ADDRESSES", "127.0.0.1")
os.environ.setdefault("WEBHOOK_BACKOFF_BASE_SECONDS", "0.2")
os.environ.setdefault("WEBHOOK_BACKOFF_MAX_SECONDS", "1")
os.environ.setdefault("WEBHOOK_MAX_ATTEMPTS", "4")
os.environ.setdefault("WEBHOOK_ENDPOINTS_CHECK_SECONDS", "0")
os.environ.setdefault("NOTIFICATION_REACH_CHECK_SECONDS", "0")
os.environ.setdefault("MAIL_LOOKS_CHECK_SECONDS", "0")

from config.settings import *  # noqa: E402,F403

# Rate limits stay on (the counting path runs in every test) but far out of reach; the
# throttle tests lower them with override_settings. Counters live in their own Redis
# database, so tests may clear it without touching a development server's cache.
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        scope: "1000000/min" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]  # noqa: F405
    },
}
TEST_CACHE_REDIS_DB = 6
CACHES = {  # noqa: F405
    "default": {
        **CACHES["default"],  # noqa: F405
        "LOCATION": urlsplit(REDIS_URL)._replace(path=f"/{TEST_CACHE_REDIS_DB}").geturl(),  # noqa: F405
        "KEY_PREFIX": "game-tests",
    }
}

from config.settings import DATABASES, database_from_url  # noqa: E402

RUNTIME_DATABASE = DATABASES["default"]
if os.environ.get("DATABASE_OWNER_URL"):
    # The owner's credentials only: server and database stay DATABASE_URL's, so a server
    # a test starts with DATABASE_URL pointing at the test database stays on it.
    _owner = database_from_url(os.environ["DATABASE_OWNER_URL"])
    DATABASES = {"default": {**RUNTIME_DATABASE, "USER": _owner["USER"],
                             "PASSWORD": _owner["PASSWORD"]}}
    # the runtime role's statement and lock timeouts are not the owner's (config/settings.py)
    DATABASES["default"]["OPTIONS"] = {
        name: value for name, value in RUNTIME_DATABASE.get("OPTIONS", {}).items()
        if name != "options"}

# The test process's own pool, larger than a web process's: tests run ORM calls in
# short-lived threads (asyncio.to_thread inside asyncio.run makes a new executor each
# time) that end without handing their connection back, so over a whole run a pool of 8
# ran dry (PoolTimeout in socket tests late in the suite). A server or worker a test
# starts sizes its pool from the environment, as in production.
if isinstance(DATABASES["default"].get("OPTIONS", {}).get("pool"), dict):
    DATABASES["default"]["OPTIONS"]["pool"] = {**DATABASES["default"]["OPTIONS"]["pool"],
                                               "max_size": 32}

# The pause a web process takes after expensive GraphQL operations (games/graphql/
# concurrency.py) is off: tests send them one after the other, and a pause left by one
# test would refuse the next test's. Its own tests turn it on; so does the server that
# tests/games/graphql/test_abusive_clients.py starts (GRAPHQL_EXPENSIVE_SHARE).
GRAPHQL_EXPENSIVE_SHARE = float(os.environ.get("GRAPHQL_EXPENSIVE_SHARE", "1"))
