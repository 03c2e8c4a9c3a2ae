"""`manage.py check --deploy` passes with the production settings (DEBUG off, HTTPS on,
a real key) and would catch a deployment that forgot HTTPS. Issue 14."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(**overrides: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false",
           "OAUTH_HTTP_REDIRECTS": "false",
           "SECRET_KEY": secrets.token_urlsafe(50),
           # a password of its own: the repository's defaults are config.W001
           "DATABASE_URL": f"postgres://game:{secrets.token_hex(16)}@127.0.0.1:5432/game",
           **overrides}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def test_check_deploy_is_clean_in_the_production_configuration():
    result = _check_deploy(HTTPS="true")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_without_https():
    result = _check_deploy(HTTPS="false")
    assert result.returncode != 0
    assert "SECURE_SSL_REDIRECT" in result.stderr + result.stdout


def test_check_deploy_warns_about_the_published_database_passwords():
    result = _check_deploy(HTTPS="true",
                           DATABASE_URL="postgres://game:game@127.0.0.1:5432/game")
    assert result.returncode != 0
    assert "config.W001" in result.stderr + result.stdout


def test_compose_refuses_to_start_without_a_secret_key():
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "${SECRET_KEY:?" in compose  # compose stops with an error when it is unset
    assert "compose-insecure-key" not in compose
