"""A private match is in its own players' record exports, also for a player whose seat a
bot took over or finished (a timeout, a resignation), and still hidden from everyone else
(issue 22, item 6; docs/lobby.md: "not in a user's record export" of others)."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from games.clocks import services as clock_services
from games.lobby import services as lobby_services
from games.matches.models import Match, MatchStatus, Seat
from tests.games.support import API, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)  # scoring runs on commit


def _exported(client, username) -> list[int]:
    response = client.get(f"{API}/users/{username}/records/")
    assert response.status_code == 200

    async def collect():
        return b"".join([chunk async for chunk in response.streaming_content])

    return [json.loads(line)["match"]["id"]
            for line in async_to_sync(collect)().decode().splitlines()]


def test_a_player_who_resigned_a_private_match_exports_its_record(make_user,
                                                                   make_auth_client):
    """bob took his seat with the invite code (no invitation names him) and resigned: a
    bot holds his seat, so neither "holds a seat" nor "was invited" finds him. His record
    export left the match out; the one rule of who played a seat
    (games.matches.seat_players) now decides."""
    alice, bob, stranger = make_user(), make_user(), make_user()
    with eager_celery():
        match, code = lobby_services.create_private_match(user=alice, game="han", players=2)
        lobby_services.join_by_code(user=bob, invite_code=code)
        clock_services.resign(user=bob, match_id=match.pk)  # one left standing: the end
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert Seat.objects.get(match=match, position=1).user is None  # a bot holds it now
    assert _exported(make_auth_client(bob), bob.username) == [match.pk]
    assert _exported(make_auth_client(alice), alice.username) == [match.pk]
    # nobody else sees it listed: not a stranger, not an anonymous reader
    assert _exported(make_auth_client(stranger), bob.username) == []
    assert _exported(APIClient(), bob.username) == []
    assert _exported(make_auth_client(bob), alice.username) == [match.pk]
