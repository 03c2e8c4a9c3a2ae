"""The records' signing keys come from the environment (issue 39): like SECRET_KEY, the
settings refuse to start with DEBUG off when RECORD_SIGNING_KEYS is unset, holds the
public development key or a malformed one; DEBUG on (local development) starts with the
development key; `manage.py record_signing_key` prints a key the settings accept."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
REAL_KEY = base64.b64encode(os.urandom(32)).decode()


def _start(**env: str) -> subprocess.CompletedProcess:
    """Load config.settings in a fresh interpreter with a real SECRET_KEY, as a
    deployment would, and print the keys it signs with."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "RECORD_SIGNING_KEYS")}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings",
                 SECRET_KEY="a-real-secret-of-the-deployment-1234567890", **env)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); "
         "from django.conf import settings; print(','.join(settings.RECORD_SIGNING_KEYS))"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60,
    )


def test_production_refuses_a_missing_or_development_or_malformed_key():
    development = settings.DEVELOPMENT_RECORD_SIGNING_KEY
    for env in ({}, {"RECORD_SIGNING_KEYS": ""}, {"RECORD_SIGNING_KEYS": development},
                {"RECORD_SIGNING_KEYS": f"{REAL_KEY},{development}"},
                {"RECORD_SIGNING_KEYS": "not-a-key"},
                {"RECORD_SIGNING_KEYS": base64.b64encode(bytes(16)).decode()}):
        refused = _start(**env)
        assert refused.returncode != 0, env
        assert "ImproperlyConfigured" in refused.stderr
        assert "RECORD_SIGNING_KEYS" in refused.stderr
        assert REAL_KEY not in refused.stderr  # a key is never echoed


def test_production_starts_with_real_keys_and_development_with_its_key():
    old = base64.b64encode(os.urandom(32)).decode()
    started = _start(RECORD_SIGNING_KEYS=f" {REAL_KEY} , {old} ")
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == f"{REAL_KEY},{old}"
    development = _start(DEBUG="true")
    assert development.stdout.strip() == settings.DEVELOPMENT_RECORD_SIGNING_KEY


def test_the_command_prints_a_key_the_settings_accept():
    made = subprocess.run([sys.executable, "manage.py", "record_signing_key"], cwd=ROOT,
                          env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"},
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    assert len(base64.b64decode(key, validate=True)) == 32
    assert "key id" in made.stderr and key not in made.stderr
    assert _start(RECORD_SIGNING_KEYS=key).returncode == 0
