"""`manage.py generate_vapid_keys` prints a private key the server takes: with it set,
``GET /api/v1/push/key/`` serves the public key the command printed."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.games.support import API

pytestmark = pytest.mark.django_db


def test_the_printed_key_turns_push_on(settings, api_client):
    out, err = io.StringIO(), io.StringIO()
    call_command("generate_vapid_keys", stdout=out, stderr=err)
    settings.WEBPUSH_VAPID_PRIVATE_KEY = out.getvalue().strip()
    printed_public = err.getvalue().strip().rsplit(" ", 1)[1]
    answer = api_client.get(f"{API}/push/key/")
    assert answer.status_code == 200
    assert answer.json() == {"public_key": printed_public}
