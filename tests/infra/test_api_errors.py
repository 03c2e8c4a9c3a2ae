"""The error envelope of infra/api_errors.py for errors the accounts tests do not reach."""

from __future__ import annotations

import pytest
from django.http import Http404
from django.test import RequestFactory
from rest_framework import exceptions

from infra.api_errors import ApiError, api_exception_handler, server_error_view


class StalePly(ApiError):
    status_code = 409
    default_code = "stale_ply"
    default_detail = "The match has moved on."


def render(exc: Exception):
    response = api_exception_handler(exc, {"request": None, "view": None})
    return response.status_code, response.data


def test_api_error_subclass_renders_its_status_code_message_and_details():
    status, body = render(StalePly(details={"expected_ply": 3, "current_ply": 4}))
    assert status == 409
    assert body == {
        "error": {
            "code": "stale_ply",
            "message": "The match has moved on.",
            "details": {"expected_ply": 3, "current_ply": 4},
        }
    }


def test_api_error_instance_can_override_everything():
    status, body = render(
        ApiError("Seat 2 is taken.", code="seat_taken", details={"seat": 2}, status=409)
    )
    assert status == 409
    assert body["error"] == {
        "code": "seat_taken",
        "message": "Seat 2 is taken.",
        "details": {"seat": 2},
    }


def test_throttled_carries_the_wait():
    status, body = render(exceptions.Throttled(wait=2.2))
    assert status == 429
    assert body["error"]["code"] == "throttled"
    assert body["error"]["details"] == {"retry_after_seconds": 3}


def test_django_404_and_permission_denied_map_to_stable_codes():
    from django.core.exceptions import PermissionDenied

    assert render(Http404("gone"))[1]["error"]["code"] == "not_found"
    status, body = render(PermissionDenied())
    assert (status, body["error"]["code"]) == (403, "permission_denied")


def test_non_api_exceptions_are_left_to_django():
    assert api_exception_handler(RuntimeError("boom"), {"request": None, "view": None}) is None


@pytest.mark.django_db
def test_unknown_api_url_is_json_404(api_client):
    response = api_client.get("/api/v1/no-such-endpoint")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_server_error_under_api_is_json_and_elsewhere_is_html():
    factory = RequestFactory()
    api_response = server_error_view(factory.get("/api/v1/anything"))
    assert api_response.status_code == 500
    assert api_response["Content-Type"] == "application/json"
    assert b'"server_error"' in api_response.content

    page_response = server_error_view(factory.get("/admin/"))
    assert page_response.status_code == 500
    assert page_response["Content-Type"].startswith("text/html")
