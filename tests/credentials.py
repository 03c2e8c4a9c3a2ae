"""A credential limited to some scopes, as an OAuth access token or a personal access
token is (docs/api.md "Scopes"): to the scope checks anything with a ``scope`` string is one
(infra/credential_scopes.py), so the tests of the checks do not wait for the OAuth
server's own tokens. An ``application`` (with ``pk`` and an optional ``rate_tier``, as
the App model has) makes it an app's, for the per-app limits and counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient


@dataclass
class App:
    pk: int
    rate_tier: str | None = None


@dataclass
class ScopedCredential:
    scope: str = ""
    application: Any = None

    @property
    def application_id(self) -> int | None:
        return self.application.pk if self.application is not None else None


def scoped_client(user, scope: str, application: App | None = None) -> APIClient:
    """An APIClient whose requests arrive as ``user`` with a credential of ``scope``
    (DRF's forced authentication: ``request.auth`` is the credential, over REST and
    GraphQL's HTTP view alike)."""
    client = APIClient()
    client.force_authenticate(user, token=ScopedCredential(scope, application))
    return client
