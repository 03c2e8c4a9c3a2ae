"""Per-app limits and counts (infra/throttles.py ``app``, infra/observability/metrics.py):
an app's tokens share one budget whoever their users are, its tier picks the rate, other
apps and first-party tokens are not touched; and requests, errors and moves are counted
per app under a bounded label."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from prometheus_client import REGISTRY

from games.matches import selectors
from infra.observability import metrics
from tests.credentials import App, ScopedCredential, scoped_client
from tests.games.graphql.support import make_player, start_match
from tests.infra.test_throttles import assert_throttled, limits  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

EVERY_SCOPE = "account:read match:play match:write account:write"


def _sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def app_rates(limits, settings):  # noqa: F811 - the fixture imported above
    """app_rates(default, **tiers): the app rate and the tiers; every other unlimited."""

    def apply(default: str, **tiers: str) -> None:
        limits()
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                       "app": default},
        }
        settings.APP_RATE_TIERS = tiers

    return apply


def test_an_app_s_tokens_share_one_budget_across_its_users(app_rates, make_user):
    app_rates("3/min")
    app = App(pk=901)
    clients = [scoped_client(make_user(), EVERY_SCOPE, app) for _ in range(3)]
    for client in clients:  # one request each: the app's three
        assert client.get("/api/v1/games/").status_code == 200
    assert_throttled(clients[0].get("/api/v1/games/"))
    # another app, a first-party token and the same users without the app: untouched
    assert scoped_client(make_user(), EVERY_SCOPE, App(pk=902)).get(
        "/api/v1/games/").status_code == 200
    assert scoped_client(make_user(), EVERY_SCOPE).get("/api/v1/games/").status_code == 200


def test_an_app_s_tier_picks_its_rate(app_rates, user):
    app_rates("1/min", partner="3/min")
    partner = scoped_client(user, EVERY_SCOPE, App(pk=903, rate_tier="partner"))
    for _ in range(3):
        assert partner.get("/api/v1/games/").status_code == 200
    assert_throttled(partner.get("/api/v1/games/"))
    unknown_tier = scoped_client(user, EVERY_SCOPE, App(pk=904, rate_tier="gold"))
    assert unknown_tier.get("/api/v1/games/").status_code == 200
    assert_throttled(unknown_tier.get("/api/v1/games/"))  # the default rate: 1/min


def test_the_tier_staff_pick_in_the_admin_applies(app_rates, user):
    """The App model's own field (``rate_tier``, the admin's choices), not a stand-in."""
    from accounts.apps_oauth.models import App as RegisteredApp

    app_rates("1/min", high="3/min")
    registered = RegisteredApp.objects.create(
        name="High tier", redirect_uris="https://high.example/cb",
        rate_tier=RegisteredApp.RateTier.HIGH)
    client = scoped_client(user, EVERY_SCOPE, registered)
    for _ in range(3):
        assert client.get("/api/v1/games/").status_code == 200
    assert_throttled(client.get("/api/v1/games/"))


def test_graphql_operations_count_against_the_app_too(app_rates, user):
    app_rates("2/min")
    client = scoped_client(user, EVERY_SCOPE, App(pk=905))
    assert client.get("/api/v1/games/").status_code == 200  # REST and GraphQL: one budget
    query = json.dumps({"query": "{ games { game } }"})
    assert client.post("/graphql/", query, content_type="application/json").status_code == 200
    assert_throttled(client.post("/graphql/", query, content_type="application/json"))


def test_requests_and_errors_are_counted_per_app(user, auth_client):
    cache.clear()
    before = {name: _sample(name, app="906", transport="rest")
              for name in ("app_requests_total", "app_errors_total")}
    client = scoped_client(user, "match:play", App(pk=906))
    assert client.get("/api/v1/games/").status_code == 200
    assert client.get("/api/v1/me").status_code == 403  # insufficient_scope: an error
    assert _sample("app_requests_total", app="906", transport="rest") == \
        before["app_requests_total"] + 2
    assert _sample("app_errors_total", app="906", transport="rest") == \
        before["app_errors_total"] + 1
    personal = _sample("app_requests_total", app="personal-token", transport="rest")
    first_party = _sample("app_requests_total", app="first-party", transport="rest")
    assert scoped_client(user, EVERY_SCOPE).get("/api/v1/games/").status_code == 200
    assert auth_client.get("/api/v1/games/").status_code == 200
    # a scoped token of no app (a personal access token), and the service's own token
    assert _sample("app_requests_total", app="personal-token", transport="rest") == personal + 1
    assert _sample("app_requests_total", app="first-party", transport="rest") == first_party + 1


def test_moves_are_counted_per_app(make_user):
    cache.clear()
    players = [make_player(make_user) for _ in range(2)]
    match_id = start_match("hansa", players)
    match = selectors.get_match(match_id)
    seat = selectors.to_act_of(match)[0]
    move = selectors.legal_moves_for(match, players[seat].user)["moves"][0]
    before = _sample("app_moves_total", app="907")
    client = scoped_client(players[seat].user, "match:play", App(pk=907))
    response = client.post(f"/api/v1/matches/{match_id}/moves/",
                           {"move": move, "expected_ply": match.ply}, format="json")
    assert response.status_code == 201, response.json()
    assert _sample("app_moves_total", app="907") == before + 1


def test_the_app_label_is_bounded(monkeypatch):
    monkeypatch.setattr(metrics, "_labelled_apps", set())
    monkeypatch.setattr(metrics, "APP_LABELS", 3)
    labels = [metrics.app_label(None, ScopedCredential("", App(pk=pk))) for pk in range(10)]
    assert labels[:3] == ["0", "1", "2"] and set(labels[3:]) == {"other"}
    assert metrics.app_label(None, ScopedCredential("", App(pk=1))) == "1"  # still its own
    assert metrics.app_label(None, None) == "anonymous"
