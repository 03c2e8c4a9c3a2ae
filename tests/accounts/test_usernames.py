"""Usernames (issue 9, defect 6): unique regardless of case, NFKC-normalised, from a
documented character set (accounts/usernames.py); login finds the account in any case."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError
from django.test import Client
from rest_framework.exceptions import ValidationError

from accounts import services
from accounts.models import User
from tests.conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/auth/register/"
TOKEN = "/api/v1/auth/token/"


def _register(api_client, username: str):
    return api_client.post(REGISTER, {"username": username, "password": DEFAULT_PASSWORD},
                           format="json")


def _field_code(response) -> str:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    [problem] = error["details"]["username"]
    return problem["code"]


@pytest.mark.parametrize("look_alike", ["ADMIN", "Admin", "ａｄｍｉｎ", "ＡＤＭＩＮ"])
def test_a_look_alike_of_an_existing_username_is_refused(api_client, make_user, look_alike):
    make_user(username="admin")
    response = _register(api_client, look_alike)
    assert _field_code(response) == "unique"
    assert User.objects.count() == 1


def test_graphql_registration_refuses_it_too(make_user):
    make_user(username="admin")
    query = ("mutation($u: String!, $p: String!) { register(username: $u, password: $p) "
             "{ token errors { code field details } } }")
    body = Client().post("/graphql/", data=json.dumps(
        {"query": query, "variables": {"u": "ADMIN", "p": DEFAULT_PASSWORD}}),
        content_type="application/json").json()
    [error] = body["data"]["register"]["errors"]
    assert error["code"] == "invalid_input" and error["field"] == "username"
    assert error["details"]["username"][0]["code"] == "unique"
    assert body["data"]["register"]["token"] is None


@pytest.mark.parametrize("username, code", [
    ("al", "min_length"),
    ("a" * 31, "max_length"),
    ("bad name", "invalid_characters"),
    ("\u0430dmin", "invalid_characters"),  # Cyrillic a
    ("ann@example", "invalid_characters"),
    ("zoë", "invalid_characters"),
])
def test_usernames_outside_the_character_set_are_refused(api_client, username, code):
    assert _field_code(_register(api_client, username)) == code
    assert User.objects.count() == 0


def test_registration_stores_the_nfkc_form_and_keeps_the_case(api_client):
    response = _register(api_client, "Ｂｏｂ.Ｓ_ｍｉｔｈ-2")  # full-width forms
    assert response.status_code == 201, response.content
    assert response.json()["user"]["username"] == "Bob.S_mith-2"
    assert User.objects.get().username == "Bob.S_mith-2"


@pytest.mark.parametrize("typed", ["admin", "ADMIN", "Admin", "ａｄｍｉｎ"])
def test_login_finds_the_account_in_any_case(api_client, make_user, typed):
    user = make_user(username="admin")
    response = api_client.post(TOKEN, {"username": typed, "password": DEFAULT_PASSWORD},
                               format="json")
    assert response.status_code == 200, response.content
    assert response.json()["user"]["username"] == "admin"
    assert response.json()["user"]["id"] == user.pk


def test_the_database_refuses_a_case_duplicate(make_user):
    make_user(username="carol")
    with pytest.raises(IntegrityError):
        User.objects.create_user(username="CAROL", password=DEFAULT_PASSWORD)


def test_a_registration_racing_another_is_a_field_error_not_a_500(make_user):
    make_user(username="dave")
    # The serializer's check passed before the other registration committed: the
    # service itself meets the constraint.
    with pytest.raises(ValidationError) as refused:
        services.register_user(username="DAVE", password=DEFAULT_PASSWORD)
    assert refused.value.get_codes() == {"username": ["unique"]}
    assert User.objects.count() == 1
