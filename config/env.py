"""Twelve-factor settings: every value from an environment variable, with a default that
works on a fresh machine running the project-local services (scripts/services.sh)."""

from __future__ import annotations

import base64
import binascii
import os
from urllib.parse import unquote, urlparse


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def is_raw_key(text: str, length: int) -> bool:
    """Whether ``text`` is the standard base64 of exactly ``length`` bytes (a key)."""
    try:
        return len(base64.b64decode(text, validate=True)) == length
    except (binascii.Error, ValueError):
        return False


def database_from_url(url: str) -> dict:
    """``postgres://user:pass@host:port/name`` -> a Django DATABASES entry."""
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql"}:
        raise ValueError(f"DATABASE_URL must be a postgres:// URL, not {parsed.scheme!r}")
    return {
        "ENGINE": "infra.postgresql",  # Django's, JSON written by orjson
        "NAME": unquote(parsed.path.lstrip("/")),
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": parsed.hostname or "",
        "PORT": str(parsed.port or ""),
        "CONN_MAX_AGE": 0,
        # Separate test databases let several test runs share one server (DATABASE_TEST_NAME).
        "TEST": {
            "NAME": os.environ.get("DATABASE_TEST_NAME")
            or unquote(parsed.path.lstrip("/")) + "_test"
        },
    }
