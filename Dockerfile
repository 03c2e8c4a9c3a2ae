# One image for every role (web, worker, beat, migrate): built once, run as a non-root user.
#   docker build -t han-hansa-service .      (docker compose builds it for you)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# board.png draws through Debian's libcairo2 (cairosvg), in the DejaVu fonts of the boards.
RUN apt-get update -q && apt-get install -y -q --no-install-recommends libcairo2 \
        fonts-dejavu-core && rm -rf /var/lib/apt/lists/*

# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml ./
RUN mkdir -p config accounts games rules \
    && pip install '.[images]' && pip uninstall -y han-hansa-service

COPY manage.py ./
COPY config config
COPY accounts accounts
COPY games games
COPY infra infra
COPY rules rules
COPY locale locale
# served at /api/v1/asyncapi.yaml (games/api/asyncapi.py)
COPY docs/asyncapi.yaml docs/asyncapi.yaml
COPY scripts/serve_web.sh scripts/with_metrics.sh scripts/
# The German messages, compiled with gettext (removed again: only the .mo is needed).
RUN apt-get update -q && apt-get install -y -q --no-install-recommends gettext \
    && django-admin compilemessages --ignore .git \
    && apt-get purge -y -q gettext && apt-get autoremove -y -q && rm -rf /var/lib/apt/lists/*
# The code runs from /app (the working directory is first on the path).
# The admin's and API docs' assets are collected here, served by the web processes.
RUN DEBUG=false SECRET_KEY=build-only-key-for-collectstatic-never-used-at-run-time \
       RECORD_SIGNING_KEYS="$(head -c 32 /dev/urandom | base64)" \
       python manage.py collectstatic --noinput --verbosity 0 \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin app

USER app
EXPOSE 8000
ENV HOST=0.0.0.0 PORT=8000
# Readiness (docs/operations.md "Probes"): 503 only when the database does not answer
# within 2 s (Redis down is "degraded", still 200); any Host and plain HTTP are fine.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health/ready', timeout=3)"]
CMD ["scripts/serve_web.sh"]
