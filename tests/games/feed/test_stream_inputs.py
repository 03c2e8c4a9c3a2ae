"""``GET /api/v1/stream/`` (a plain async Django view, not DRF) applies the API's rule for
control characters (issue 21, infra/text_inputs.py): a query value holding one is a 400
``invalid_input``, and a token key holding one is refused as any bad key (401) - a NUL in
it used to reach PostgreSQL and fail there."""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db(transaction=True)


def _get(query: str, key: str):
    async def get():
        return await AsyncClient(raise_request_exception=False).get(
            f"/api/v1/stream/{query}", headers={"Authorization": f"Token {key}"})
    return asyncio.run(get())


def test_a_control_character_in_the_query_is_invalid_input(user):
    response = _get("?last_event_id=1%00", Token.objects.create(user=user).key)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert error["details"]["last_event_id"][0]["code"] == "control_characters"


@pytest.mark.parametrize("key", ["a\x00b", "\x00" * 40])
def test_a_token_key_with_a_control_character_is_401(db, key):
    response = _get("", key)
    assert response.status_code == 401, response.content
    assert response.json()["error"]["code"] == "not_authenticated"
