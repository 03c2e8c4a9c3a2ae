"""The request id (infra/observability/request_id.py) and the JSON log lines
(infra/observability/json_logs.py), in this process; the live test
(tests/infra/test_observability_live.py) follows the id across processes."""

from __future__ import annotations

import json
import logging
import re

import pytest
from prometheus_client import REGISTRY

from infra.observability import request_id
from infra.observability.json_logs import MASK, JsonLinesFormatter

NEW_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.django_db
def test_a_sane_incoming_id_is_kept_and_returned(client):
    response = client.get("/api/v1/health", HTTP_X_REQUEST_ID="lb-7f3a:9c1e.5b_2d@edge")
    assert response["X-Request-Id"] == "lb-7f3a:9c1e.5b_2d@edge"


@pytest.mark.django_db
@pytest.mark.parametrize("sent", [None, "", "x" * 101, "two words", "a\nb", "ümlaut",
                                  "<script>"])
def test_a_missing_or_insane_id_is_replaced_by_a_new_one(client, sent):
    extra = {} if sent is None else {"HTTP_X_REQUEST_ID": sent}
    first = client.get("/api/v1/health", **extra)["X-Request-Id"]
    second = client.get("/api/v1/health", **extra)["X-Request-Id"]
    assert NEW_ID.fullmatch(first) and NEW_ID.fullmatch(second) and first != second


@pytest.mark.django_db
def test_errors_carry_the_id_and_a_browser_on_another_origin_may_read_it(client, settings):
    settings.CORS_ALLOWED_ORIGINS = ["http://frontend.example:3000"]
    response = client.post("/api/v1/matches/", "{}", content_type="application/json",
                           HTTP_ORIGIN="http://frontend.example:3000",
                           HTTP_X_REQUEST_ID="client-42")
    assert response.status_code in (400, 401)
    assert response["X-Request-Id"] == "client-42"
    assert "x-request-id" in response["Access-Control-Expose-Headers"].lower()


def _record(message: str, *args, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("games.test", logging.WARNING, __file__, 1, message, args,
                             exc_info)


def test_a_record_is_one_json_object_on_one_line_with_the_request_id():
    formatter = JsonLinesFormatter()
    try:
        raise ValueError("boom\non two lines")
    except ValueError:
        import sys

        failure = sys.exc_info()
    with request_id.serving("req-1"):
        text = formatter.format(_record("match %s moved", 7, exc_info=failure))
    assert "\n" not in text
    line = json.loads(text)
    assert line["message"] == "match 7 moved" and line["level"] == "WARNING"
    assert line["request_id"] == "req-1" and line["logger"] == "games.test"
    assert "ValueError: boom" in line["exc"]
    assert "request_id" not in json.loads(formatter.format(_record("outside a request")))


@pytest.mark.parametrize("said", [
    "Authorization: Token 0123456789abcdef0123456789abcdef01234567",
    "token=0123456789abcdef0123456789abcdef01234567",
    '{"password": "hunter2-secret", "username": "ann"}',
    "login with password=hunter2-secret failed",
    "SECRET_KEY: django-insecure-abcdefgh",
    '{"authToken": "0123456789abcdef0123456789abcdef01234567"}',
])
def test_secrets_are_masked_whatever_a_library_logs(said):
    text = JsonLinesFormatter().format(_record(said))
    assert "0123456789abcdef" not in text and "hunter2" not in text
    assert "abcdefgh" not in text and MASK in text


def _sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db
def test_a_rate_limit_refusal_is_counted_by_scope(client, settings):
    from django.core.cache import cache

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon_read": "1/min"}}
    cache.clear()
    before = _sample("throttle_refusals_total", scope="anon_read")
    statuses = [client.get("/api/v1/games/").status_code for _ in range(3)]
    cache.clear()
    assert statuses.count(429) == 2
    assert _sample("throttle_refusals_total", scope="anon_read") == before + 2
