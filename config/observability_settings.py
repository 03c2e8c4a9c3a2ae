"""Settings: metrics and logs (issue 25; docs/operations.md "Metrics" and "Logs"),
imported at the end of config/settings.py. Its INSTALLED_APPS, MIDDLEWARE and
CORS_EXPOSE_HEADERS name what this module adds ("django_prometheus", the two middlewares
below, X-Request-Id)."""

from config.env import env_bool, env_int, env_str

# -- metrics (infra/observability/) ---------------------------------------------------------
# django-prometheus (in INSTALLED_APPS) exports nothing by itself (no port, no URL): the
# exporter process serves every process's metrics (infra/observability/exporter.py).
PROMETHEUS_EXPORT_MIGRATIONS = False  # it would query the database at every start
# Route latencies in seconds: a move is milliseconds; GraphQL's slowest stop at 5 s.
PROMETHEUS_LATENCY_BUCKETS = (0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                              2.5, 5.0, 10.0, float("inf"))
# Not on the service's port: the exporter listens here (127.0.0.1 unless told otherwise).
METRICS_HOST = env_str("METRICS_HOST", "127.0.0.1")
METRICS_PORT = env_int("METRICS_PORT", 9100)

# MIDDLEWARE starts with RouteMetricsMiddleware (its clock spans every other middleware:
# request latency per route), then RequestIdMiddleware (the id is set before anything
# logs). CORS_EXPOSE_HEADERS lets a browser read X-Request-Id (to quote it to support).

# -- logs: JSON lines with the request id -------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "infra.observability.json_logs.JsonLinesFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # uvicorn's own loggers carry their own handlers: through ours instead. Its access log
    # is off (scripts/serve_web.sh): no request id, no duration; ours replaces it
    # (infra/observability/access_log.py)
    "loggers": {
        "uvicorn": {"handlers": ["console"], "propagate": False},
        "uvicorn.error": {"handlers": ["console"], "propagate": False},
        "uvicorn.access": {"handlers": ["console"], "propagate": False, "level": "WARNING"},
    },
}
# one JSON access line per HTTP request (infra/observability/access_log.py)
WEB_ACCESS_LOG = env_bool("WEB_ACCESS_LOG", True)
