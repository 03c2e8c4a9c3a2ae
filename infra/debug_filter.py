"""What Django's error pages and error reports may show (issue 9, defect 3): never a
setting that holds a credential, never the caller's token or session, DEBUG on or off.

Django's own filter hides settings whose *name* looks secret (KEY, PASS, TOKEN...), but
not ``DATABASE_URL`` or ``REDIS_URL``, whose values carry passwords; and with DEBUG on it
shows every local variable of every stack frame, where the caller's token sits (a
``Token`` instance, a ``key`` argument, the ``Authorization`` header). This filter:

- hides settings named like a connection string or a place holding one as well;
- stays active with DEBUG on (Django's turns its frame and POST filtering off then);
- in stack frames, hides variables named like a secret, ``Token`` instances, and any
  variable whose printed value contains a secret it knows: a hidden setting's value, or
  the request's Authorization header, token key and cookies.

Installed as ``DEFAULT_EXCEPTION_REPORTER_FILTER`` in config/settings.py."""

from __future__ import annotations

import re
from pprint import pformat

from django.conf import settings
from django.views.debug import SafeExceptionReporterFilter
from rest_framework.authtoken.models import Token

# Django's names, plus connection strings (…_URL: DATABASE_URL, REDIS_URL,
# CELERY_BROKER_URL), cache LOCATIONs, channel layer hosts, DSNs and the whole DATABASES.
HIDDEN_NAMES = re.compile(
    r"API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|CSRF|SESSION"
    r"|URL$|LOCATION|HOSTS|DSN|DATABASE|BROKER|CONFIG",
    flags=re.I,
)

# A known secret shorter than this is not searched for in values (it would match by chance).
_MIN_SECRET_LENGTH = 6


class SecretsNeverShownFilter(SafeExceptionReporterFilter):
    hidden_settings = HIDDEN_NAMES

    def is_active(self, request) -> bool:
        return True  # DEBUG on is still a page served to whoever triggered it

    def get_traceback_frame_variables(self, request, tb_frame):
        secrets = self._known_secrets(request)
        cleansed = []
        for name, value in super().get_traceback_frame_variables(request, tb_frame):
            if self._is_secret(name, value, secrets):
                value = self.cleansed_substitute
            cleansed.append((name, value))
        return cleansed

    def _is_secret(self, name: str, value, secrets: list[str]) -> bool:
        if isinstance(name, str) and self.hidden_settings.search(name):
            return True
        if isinstance(value, Token):
            return True
        try:
            printed = value if isinstance(value, str) else pformat(value)
        except Exception:  # a value that cannot even print itself shows nothing
            return True
        return any(secret in printed for secret in secrets)

    def _known_secrets(self, request) -> list[str]:
        """Values to hunt for: the keys, connection strings and database passwords of the
        settings, and the request's credentials. (Not every string of a hidden setting:
        a host name or a validator's dotted path is no secret, and would hide half the
        page.)"""
        found: list[str] = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
        for key in dir(settings):
            if key.isupper():
                _collect_connection_strings(getattr(settings, key), found)
        found.extend(db.get("PASSWORD") or "" for db in settings.DATABASES.values())
        if request is not None and hasattr(request, "META"):
            header = request.META.get("HTTP_AUTHORIZATION", "")
            found.append(header)
            found.extend(header.split())  # the bare key of "Token <key>"
            found.extend(getattr(request, "COOKIES", {}).values())
        return [secret for secret in set(found)
                if isinstance(secret, str) and len(secret) >= _MIN_SECRET_LENGTH]


def _collect_connection_strings(value, into: list[str]) -> None:
    """Every ``scheme://...`` string in a setting (DATABASE_URL, REDIS_URL, a cache's
    LOCATION, the channel layer's hosts): they may carry a password."""
    if isinstance(value, str):
        if "://" in value and "@" in value:
            into.append(value)
            into.append(value.split("://", 1)[1].rsplit("@", 1)[0])  # user:password
    elif isinstance(value, dict):
        for item in value.values():
            _collect_connection_strings(item, into)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect_connection_strings(item, into)
