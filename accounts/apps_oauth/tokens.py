"""What access tokens look like, and how one is found from the key a client sends.

Each kind carries a prefix (as GitHub's do): ``hqa_`` an app's access token, ``hqr_`` its
refresh token, ``hqp_`` a personal access token. A first-party key (DRF's ``Token``,
40 hex digits) never holds an underscore, so one look at a key says which table answers
it: one query per authentication, whichever kind. The prefix also lets secret scanners
and log filters recognise a leaked token.

Tokens are stored hashed (django-oauth-toolkit's RFC 9700 token storage): the database
keeps ``token_checksum``, the SHA-256 of the key, and a blank ``token`` column; a key is
found by its checksum.
"""

from __future__ import annotations

import hashlib
import secrets

APP_ACCESS_PREFIX = "hqa_"
APP_REFRESH_PREFIX = "hqr_"
PERSONAL_PREFIX = "hqp_"
OAUTH_PREFIXES = (APP_ACCESS_PREFIX, PERSONAL_PREFIX)


def _new(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)  # 256 bits


def app_access_token(request=None, refresh_token=False) -> str:
    """DOT's ACCESS_TOKEN_GENERATOR (called with the oauthlib request)."""
    return _new(APP_ACCESS_PREFIX)


def app_refresh_token(request=None, refresh_token=False) -> str:
    """DOT's REFRESH_TOKEN_GENERATOR."""
    return _new(APP_REFRESH_PREFIX)


def personal_token() -> str:
    return _new(PERSONAL_PREFIX)


def is_oauth_key(key: str) -> bool:
    """An app's or a personal access token (else: a first-party key, or nothing)."""
    return key.startswith(OAUTH_PREFIXES)


def checksum(key: str) -> str:
    """How the database knows a token (DOT's ``token_checksum``)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()
