"""The README's commands honour overridden ports: `eval "$(scripts/services.sh env)"`
exports what manage.py needs, and manage.py itself derives its URLs from PG_PORT and
REDIS_PORT (play_bots used to connect to 54329 whatever the ports)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG",
                        "DJANGO_SETTINGS_MODULE", "CACHE_REDIS_URL", "CHANNEL_REDIS_URL",
                        "CELERY_BROKER_URL")}
    env.update(extra)
    return env


def bash(script: str, **env: str) -> str:
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, env=clean_env(**env),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_services_env_evaluates_into_exported_variables():
    # a child shell sees them only if they were exported
    child = 'bash -c \'echo "$DATABASE_URL|$REDIS_URL|$DEBUG"\''
    out = bash(f'eval "$(scripts/services.sh env)"; {child}', PG_PORT="54111", REDIS_PORT="63111")
    assert out.strip() == (
        "postgres://game:game@127.0.0.1:54111/game|redis://127.0.0.1:63111/0|true"
    )


def test_settings_derive_the_urls_from_the_ports():
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.DATABASES['default']['PORT'], s.REDIS_URL, s.CACHES['default']['LOCATION'])")
    out = bash(f'{sys.executable} -c "{code}"', PG_PORT="54112", REDIS_PORT="63112",
               DEBUG="true", DJANGO_SETTINGS_MODULE="config.settings")
    assert out.split() == ["54112", "redis://127.0.0.1:63112/0", "redis://127.0.0.1:63112/0"]


def test_manage_py_reaches_this_checkout_s_database_on_its_port():
    # The running test services are on PG_PORT/REDIS_PORT (the Makefile's); nothing else set.
    port = os.environ.get("PG_PORT", "54329")
    out = bash(f'eval "$(scripts/services.sh env)"; {sys.executable} manage.py check '
               "--database default && echo reached",
               PG_PORT=port, REDIS_PORT=os.environ.get("REDIS_PORT", "63799"))
    assert "reached" in out
