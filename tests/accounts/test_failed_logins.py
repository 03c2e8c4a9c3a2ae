"""Failed logins are limited per account too (issue 21, item 8; accounts/failed_logins.py).

Only the address was limited (THROTTLE_AUTH, 10/min), so a password could be guessed at
that rate from each of many addresses. The rule now (docs/security.md "Failed logins"):

- per account and address, exponential back-off: after 3 failures from one address, that
  address waits 1 s, then 2, 4 ... up to 15 minutes before its next attempt at that
  account, whatever the password; a success from it forgets its failures;
- per account: past 20 failures in a clock hour from all addresses together, only
  addresses with no failure on record for the account may try until the hour ends. An
  address that has not failed is never refused, so the owner is not locked out.

Refusals are 429 ``throttled`` with ``retry_after_seconds`` and ``reason: failed_logins``,
in REST and GraphQL alike, and they are counted through the rate limits' store, so they
hold (per process) while Redis is down."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.cache import cache
from rest_framework.test import APIClient

from infra import counters
from tests.conftest import DEFAULT_PASSWORD
from tests.infra.test_redis_unreachable import redis_refuses  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

T0 = datetime(2030, 1, 1, 12, 10, 0, tzinfo=UTC)
TOKEN = "/api/v1/auth/token/"


@pytest.fixture
def clock():
    """Frozen time (moved by hand), fresh counters; the per-address limit out of reach."""
    cache.clear()
    counters.forget_outage()
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller
    cache.clear()
    counters.forget_outage()


def login(user_or_name, password="guess", address="10.0.0.1"):
    name = getattr(user_or_name, "username", user_or_name)
    return APIClient().post(TOKEN, {"username": name, "password": password}, format="json",
                            REMOTE_ADDR=address)


def assert_backoff(response, seconds: int) -> None:
    assert response.status_code == 429, response.content
    error = response.json()["error"]
    assert error["code"] == "throttled"
    assert error["details"] == {"retry_after_seconds": seconds, "reason": "failed_logins"}
    assert response["Retry-After"] == str(seconds)


def test_three_failures_are_free_then_the_address_waits_longer_each_time(clock, user):
    for _ in range(3):
        assert login(user).json()["error"]["code"] == "invalid_credentials"
    assert login(user).json()["error"]["code"] == "invalid_credentials"  # the 4th: 1 s
    assert_backoff(login(user, DEFAULT_PASSWORD), 1)  # even the right password waits
    for failure, wait in ((5, 2), (6, 4), (7, 8)):
        clock.shift(timedelta(seconds=wait // 2))
        assert login(user).json()["error"]["code"] == "invalid_credentials", failure
        assert_backoff(login(user), wait)


def test_the_wait_is_capped_at_fifteen_minutes(clock, user):
    for _ in range(30):
        login(user)
        clock.shift(timedelta(minutes=16))
    assert login(user).json()["error"]["code"] == "invalid_credentials"
    assert_backoff(login(user), 15 * 60)


def test_a_success_forgets_the_address_s_failures(clock, user):
    for _ in range(4):
        login(user)
    clock.shift(timedelta(seconds=1))
    assert login(user, DEFAULT_PASSWORD).status_code == 200
    for _ in range(3):  # three free failures again
        assert login(user).json()["error"]["code"] == "invalid_credentials"


def test_another_address_is_not_held_back(clock, user):
    for _ in range(6):  # the 5th and 6th are refused unheard: they count no failure
        login(user, address="10.0.0.1")
    assert_backoff(login(user, DEFAULT_PASSWORD, address="10.0.0.1"), 1)
    assert login(user, DEFAULT_PASSWORD, address="10.0.0.2").status_code == 200


def test_many_addresses_guessing_never_lock_the_owner_out(clock, user):
    attackers = [f"10.1.0.{number}" for number in range(20)]
    for address in attackers:  # one guess each: under every address's own back-off
        assert login(user, address=address).json()["error"]["code"] == "invalid_credentials"
    # the account's bound is reached: an address that failed may not try again this hour
    assert_backoff(login(user, address=attackers[0]), 50 * 60)
    assert_backoff(login(user, DEFAULT_PASSWORD, address=attackers[1]), 50 * 60)
    # a new attacker gets one guess, and is then held back as well
    assert login(user, address="10.1.1.1").json()["error"]["code"] == "invalid_credentials"
    assert login(user, address="10.1.1.1").status_code == 429
    # the owner, from an address that has not failed, logs in
    assert login(user, DEFAULT_PASSWORD, address="192.0.2.7").status_code == 200
    # the hour over, the failed addresses may try again
    clock.shift(timedelta(minutes=50))
    assert login(user, DEFAULT_PASSWORD, address=attackers[1]).status_code == 200


def test_an_unknown_username_is_limited_alike(clock):
    """Else the answers would tell which usernames exist."""
    for _ in range(4):
        assert login("nobody-here").json()["error"]["code"] == "invalid_credentials"
    assert_backoff(login("nobody-here"), 1)


def test_any_spelling_of_a_name_is_one_account(clock, user):
    for spelling in (user.username, user.username.upper(), user.username.title(),
                     user.username.upper()):
        login(spelling)
    assert_backoff(login(user, DEFAULT_PASSWORD), 1)


def test_graphql_login_follows_the_same_rule(clock, user):
    mutation = ("mutation($u: String!, $p: String!) "
                "{ login(username: $u, password: $p) { token errors { code details } } }")

    def graphql_login(password):
        response = APIClient().post(
            "/graphql/", json.dumps({"query": mutation,
                                     "variables": {"u": user.username, "p": password}}),
            content_type="application/json", REMOTE_ADDR="10.0.0.9")
        return response.json()["data"]["login"]

    for _ in range(4):
        assert graphql_login("guess")["errors"][0]["code"] == "invalid_credentials"
    refused = graphql_login(DEFAULT_PASSWORD)
    assert refused["token"] is None
    assert refused["errors"] == [{"code": "throttled", "details": {
        "retry_after_seconds": 1, "reason": "failed_logins"}}]
    assert_backoff(login(user, address="10.0.0.9"), 1)  # one count for REST and GraphQL


def test_the_rule_holds_while_redis_is_down(clock, redis_refuses, user):  # noqa: F811
    for _ in range(4):
        assert login(user).json()["error"]["code"] == "invalid_credentials"
    assert_backoff(login(user, DEFAULT_PASSWORD), 1)
    assert counters.local_key_count() > 0  # counted in this process
