# Two commands matter: `make run` (development server + worker) and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

# Ports of the project-local services (scripts/services.sh); the URLs follow unless set.
PG_PORT ?= 54329
REDIS_PORT ?= 63799
# DATABASE_URL is the runtime role the service connects as; DATABASE_OWNER_URL owns the
# tables and runs migrations (and the test suite): docs/operations.md "Database roles".
DATABASE_URL ?= postgres://game:game@127.0.0.1:$(PG_PORT)/game
DATABASE_OWNER_URL ?= postgres://game_owner:game_owner@127.0.0.1:$(PG_PORT)/game
REDIS_URL ?= redis://127.0.0.1:$(REDIS_PORT)/0
export PG_PORT REDIS_PORT DATABASE_URL DATABASE_OWNER_URL REDIS_URL

# `make test` and `make test-fast` run against a PostgreSQL and a Redis of their own
# (under .var/test, on these ports), never the ones `make run` uses: the fault tests stop,
# restart and archive them, and the suite clears Redis databases (issue 39). The URLs are
# derived here and the ones from the environment ignored, so no exported DATABASE_URL can
# point the suite at a development database.
TEST_PG_PORT ?= 54339
TEST_REDIS_PORT ?= 63809
TEST_SERVICES_DIR ?= $(CURDIR)/.var/test
TEST_ENV := env -u CACHE_REDIS_URL -u CHANNEL_REDIS_URL -u CELERY_BROKER_URL \
	SERVICES_DIR=$(TEST_SERVICES_DIR) PG_PORT=$(TEST_PG_PORT) REDIS_PORT=$(TEST_REDIS_PORT) \
	DATABASE_URL=postgres://game:game@127.0.0.1:$(TEST_PG_PORT)/game \
	DATABASE_OWNER_URL=postgres://game_owner:game_owner@127.0.0.1:$(TEST_PG_PORT)/game \
	REDIS_URL=redis://127.0.0.1:$(TEST_REDIS_PORT)/0

PYTEST_ARGS ?=

.PHONY: help install services services-stop services-status test-services test-services-stop browser cairo prometheus deploy-tools clients asyncapi-tools messages run test test-fast lint

help:
	@echo "make run              venv + services + migrate + seed, then web server and worker"
	@echo "make test             venv + the tests' own services, then the import contracts and pytest (extra args: PYTEST_ARGS=...)"
	@echo "make test-fast        the same without the tests marked slow"
	@echo "make lint             ruff"
	@echo "make clients          install the TypeScript client's packages (clients/ts, npm ci)"
	@echo "make asyncapi-tools   the AsyncAPI parser the tests validate docs/asyncapi.yaml with (npm)"
	@echo "make deploy-tools     nginx and docker-compose for the deployment's tests (apt-get as root)"
	@echo "make messages         compile the translations (locale/*/LC_MESSAGES/django.po -> .mo)"
	@echo "make services         start the local PostgreSQL and Redis (.var/)"
	@echo "make services-stop    stop them"
	@echo "make services-status  report on them"
	@echo "make test-services    start the test suite's own PostgreSQL and Redis (.var/test, TEST_PG_PORT, TEST_REDIS_PORT)"
	@echo "make test-services-stop  stop them"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml changed since the last install (the stamp file).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,images]'
	touch $@

install: $(VENV)/.installed

services:
	scripts/services.sh start

services-stop:
	scripts/services.sh stop

services-status:
	scripts/services.sh status

test-services:
	$(TEST_ENV) scripts/services.sh start

test-services-stop:
	$(TEST_ENV) scripts/services.sh stop

# Chromium for the browser tests (tests/browser/): installed with apt-get when missing.
browser:
	scripts/chromium.sh

# Debian's libcairo2 and DejaVu fonts for board.png (cairosvg): installed with apt-get when
# missing.
cairo:
	scripts/cairo.sh

# Debian's Prometheus (promtool checks the Grafana dashboard's queries): apt-get when missing.
prometheus:
	scripts/prometheus.sh

# Debian's nginx and docker-compose (the shipped deploy/nginx.conf and docker-compose.yml
# run by the tests, no container engine): apt-get when missing.
deploy-tools:
	scripts/deploy_tools.sh

# The TypeScript client's packages (clients/ts; tests/clients build and run it with node):
# `npm ci` from the committed lock file when node_modules is missing or older than it.
# Without npm the client's tests are skipped (under CI they fail).
CLIENT_TS := clients/ts
$(CLIENT_TS)/node_modules/.package-lock.json: $(CLIENT_TS)/package-lock.json $(CLIENT_TS)/package.json
	@if command -v npm >/dev/null; then \
		cd $(CLIENT_TS) && npm ci --no-audit --no-fund; \
	else \
		echo "[clients] no npm: the TypeScript client's tests will be skipped (install nodejs and npm)"; \
	fi

clients: $(CLIENT_TS)/node_modules/.package-lock.json
# The AsyncAPI parser (npm, tools/asyncapi/) that validates docs/asyncapi.yaml in the tests:
# `npm ci` from its lock file when node_modules is missing or older than the lock.
asyncapi-tools:
	scripts/asyncapi_tools.sh

# The German messages (docs/development.md, "Translations"): the .po is committed, the
# compiled .mo is built here whenever the .po is newer (gettext via scripts/gettext.sh,
# apt-get as root like scripts/chromium.sh). compilemessages runs without the settings
# (it needs none), so it searches the tree for locale/ folders: the ignored ones are
# other packages' and the services' data.
MESSAGES_PO := $(wildcard locale/*/LC_MESSAGES/django.po)
MESSAGES_MO := $(MESSAGES_PO:.po=.mo)
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(VENV)/.installed
	scripts/gettext.sh
	env -u DJANGO_SETTINGS_MODULE $(BIN)/django-admin compilemessages --locale $* \
		--ignore .venv --ignore .var --ignore node_modules --ignore .git

messages: $(MESSAGES_MO)

run: install services cairo messages
	scripts/run.sh

test: install test-services browser cairo prometheus deploy-tools clients asyncapi-tools messages
	$(TEST_ENV) $(BIN)/lint-imports
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_ARGS)

# The quick loop while working: the contracts and every test not marked slow (no fault,
# worker, browser or whole-match end-to-end runs). CI runs `make test`.
test-fast: install test-services cairo prometheus deploy-tools clients asyncapi-tools messages
	$(TEST_ENV) $(BIN)/lint-imports
	$(TEST_ENV) $(BIN)/pytest -m "not slow" $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
