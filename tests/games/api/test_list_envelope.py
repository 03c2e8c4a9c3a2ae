"""Every REST list answers one envelope, paged the same way (issue 22, item 3):
``{"count", "next", "previous", "results"}`` with ``limit`` (1-100, default 20) and
``offset`` (0 or more), ``next``/``previous`` the neighbouring pages' URLs (null at the
ends), and a bad bound a 400 ``invalid_request``. One test per list endpoint walks it
page by page with limit=1 and checks the rows against the whole list."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from games.lobby import services as lobby_services
from games.matches import selectors
from games.matches import services as match_services
from games.quickmatch import services as quick_services
from games.ratings.models import Rating, RatingChange
from tests.games.support import API, assert_api_error, match_url

pytestmark = pytest.mark.django_db

KEYS = ["count", "next", "previous", "results"]


def walk(client, url: str, count: int) -> list:
    """Every row of the list, one page at a time, checking each envelope."""
    separator = "&" if "?" in url else "?"
    page = client.get(f"{url}{separator}limit=1")
    assert page.status_code == 200, page.content
    rows = []
    for index in range(count):
        body = page.json()
        assert list(body) == KEYS
        assert body["count"] == count
        assert len(body["results"]) == 1
        rows.extend(body["results"])
        if index == 0:
            assert body["previous"] is None
        else:  # the first page's link has no offset at all
            query = parse_qs(urlsplit(body["previous"]).query)
            assert query.get("offset", ["0"]) == [str(index - 1)] and query["limit"] == ["1"]
        if index == count - 1:
            assert body["next"] is None
            break
        query = parse_qs(urlsplit(body["next"]).query)
        assert query["offset"] == [str(index + 1)] and query["limit"] == ["1"]
        page = client.get(body["next"])
        assert page.status_code == 200
    whole = client.get(url).json()
    assert whole["results"] == rows and whole["next"] is None and whole["previous"] is None
    return rows


def assert_bounds_checked(client, url: str) -> None:
    separator = "&" if "?" in url else "?"
    for bad in ("limit=0", "limit=101", "limit=x", "offset=-1", "offset=1e3"):
        assert_api_error(client.get(f"{url}{separator}{bad}"), 400, "invalid_request")
    past = client.get(f"{url}{separator}offset=1000").json()
    assert past["results"] == [] and past["next"] is None and past["previous"] is not None


@pytest.fixture
def ann(make_user):
    return make_user()


@pytest.fixture
def ann_client(make_auth_client, ann):
    return make_auth_client(ann)


def test_the_catalogue(api_client):
    rows = walk(api_client, f"{API}/games/", 2)
    assert sorted(row["game"] for row in rows) == ["han", "hansa"]
    assert_bounds_checked(api_client, f"{API}/games/")


def test_matches(api_client, ann):
    made = [match_services.create_match(user=ann, game="han", players=2).pk for _ in range(3)]
    rows = walk(api_client, f"{API}/matches/?game=han", 3)
    assert [row["id"] for row in rows] == made[::-1]  # newest first
    assert_bounds_checked(api_client, f"{API}/matches/")


def test_the_move_log(make_user, api_client, ann):
    bob = make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    users = {0: ann, 1: bob}
    for _ in range(3):
        match = selectors.get_match(match.pk)
        seat = selectors.to_act_of(match)[0]
        move = selectors.legal_moves_for(match, users[seat])["moves"][0]
        match_services.submit_move(match_id=match.pk, user=users[seat], move=move)
    rows = walk(api_client, match_url(match.pk, "moves/"), 3)
    assert [row["ply"] for row in rows] == [0, 1, 2]
    assert_bounds_checked(api_client, match_url(match.pk, "moves/"))


def test_leaderboards_and_rating_histories(make_user, api_client, ann):
    players = [make_user() for _ in range(3)]
    for index, player in enumerate(players):
        Rating.objects.create(user=player, game="han", mu=25 + index, sigma=5,
                              ordinal=10 + index, rated_matches=1)
    rows = walk(api_client, f"{API}/leaderboard/han/", 3)
    assert [row["username"] for row in rows] == [player.username for player in players[::-1]]
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert_bounds_checked(api_client, f"{API}/leaderboard/han/")

    for mu in (25.0, 26.0):  # one change per match
        match = match_services.create_match(user=ann, game="han", players=2)
        RatingChange.objects.create(match=match, user=ann, game="han", seat=0, rank=1,
                                    mu_before=mu, sigma_before=5, mu_after=mu + 1,
                                    sigma_after=4.9)
    rows = walk(api_client, f"{API}/users/{ann.username}/ratings/", 2)
    assert [row["mu_before"] for row in rows] == [26.0, 25.0]  # newest first
    assert_bounds_checked(api_client, f"{API}/users/{ann.username}/ratings/")


def test_invitations_listed_and_sent(make_user, make_auth_client, ann, ann_client):
    bob = make_user()
    bob_client = make_auth_client(bob)
    for _ in range(3):
        match = match_services.create_match(user=ann, game="han", players=3)
        lobby_services.invite(user=ann, match_id=match.pk, usernames=[bob.username])
    rows = walk(bob_client, f"{API}/invitations/", 3)
    assert all(row["invitee"] == bob.username for row in rows)
    walk(bob_client, f"{API}/invitations/?status=pending", 3)
    assert_bounds_checked(bob_client, f"{API}/invitations/")
    # what one request created comes whole, in the same envelope
    carol, dave = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=4)
    sent = ann_client.post(match_url(match.pk, "invitations/"),
                           {"usernames": [carol.username, dave.username]}, format="json")
    assert sent.status_code == 201
    assert list(sent.json()) == KEYS
    assert sent.json()["count"] == 2 and sent.json()["next"] is None
    assert [row["invitee"] for row in sent.json()["results"]] == [carol.username, dave.username]


def test_quick_match_requests(ann, ann_client):
    for _ in range(3):
        waiting = quick_services.request_quick_match(user=ann, game="hansa", players=4)
        quick_services.cancel(user=ann, request_id=waiting.pk)
    rows = walk(ann_client, f"{API}/quick-match/", 3)
    assert all(row["status"] == "cancelled" for row in rows)
    assert_bounds_checked(ann_client, f"{API}/quick-match/")


def test_a_players_tokens_and_apps(ann, ann_client):
    """Accounts' lists answer the same envelope (infra/paging.py): the personal tokens,
    the apps a player registered (the connected apps are paged by the same helper)."""
    from tests.accounts.apps_oauth.support import make_app

    for name in ("one", "two", "three"):
        made = ann_client.post(f"{API}/account/tokens/", {"name": name,
                                                          "scopes": ["account:read"]},
                               format="json")
        assert made.status_code == 201, made.content
    rows = walk(ann_client, f"{API}/account/tokens/", 3)
    assert sorted(row["name"] for row in rows) == ["one", "three", "two"]
    assert_bounds_checked(ann_client, f"{API}/account/tokens/")
    for name in ("A", "B"):
        make_app(ann, name=name)
    assert [row["name"] for row in walk(ann_client, f"{API}/apps/", 2)] == ["A", "B"]
    assert_bounds_checked(ann_client, f"{API}/account/apps/")


def test_the_schema_declares_every_list_as_a_page(api_client):
    """Each GET answering a list is an ``<Item>Page`` taking limit and offset."""
    document = api_client.get(f"{API}/schema/?format=json").json()
    lists = {}
    for path, operations in document["paths"].items():
        get = operations.get("get")
        if not get:
            continue
        content = get["responses"]["200"].get("content", {}).get("application/json", {})
        ref = content.get("schema", {}).get("$ref", "")
        if ref.endswith("Page"):
            lists[path] = {parameter["name"] for parameter in get.get("parameters", [])}
        else:  # no list is left bare
            assert content.get("schema", {}).get("type") != "array", path
    assert set(lists) == {f"{API}/games/", f"{API}/matches/", f"{API}/matches/{{match_id}}/moves/",
                          f"{API}/leaderboard/{{game}}/", f"{API}/users/{{username}}/ratings/",
                          f"{API}/invitations/", f"{API}/quick-match/",
                          f"{API}/account/tokens/", f"{API}/account/apps/", f"{API}/apps/",
                          f"{API}/apps/{{app_id}}/webhooks/",
                          f"{API}/apps/{{app_id}}/webhooks/{{endpoint_id}}/deliveries/",
                          # issue 43: a chat room's messages, one's mutes
                          f"{API}/matches/{{match_id}}/chat/{{room}}/", f"{API}/chat/mutes/",
                          # issue 42: a player's push subscriptions, the games waiting
                          # (walked in tests/games/notifications/test_lists.py)
                          f"{API}/me/push-subscriptions/", f"{API}/me/waiting-games/"}
    assert all({"limit", "offset"} <= names for names in lists.values()), lists
