"""The room rules of docs/chat.md, case by case (games/chat/rooms.py), and the audience a
push carries read back by the same rule the hubs use."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.chat import rooms, services
from games.chat.models import ChatRoom
from games.clocks import services as clock_services
from games.matches.models import Match
from tests.games.chat.support import two_player_han
from tests.games.support import eager_celery

#: (room, seated, ended, readable_by_players) -> (reads, writes when signed in)
TABLE = {
    ("players", True, False, True): (True, True),
    ("players", True, True, True): (True, True),
    ("players", False, False, True): (False, False),
    ("players", False, False, False): (False, False),
    ("players", False, True, False): (True, False),
    ("spectators", False, False, False): (True, True),
    ("spectators", True, False, True): (True, True),
    ("spectators", True, False, False): (False, False),
    ("spectators", True, True, False): (True, True),
}


@pytest.mark.parametrize(("case", "expected"), TABLE.items())
def test_who_reads_and_writes_each_room(case, expected):
    room, seated, ended, readable = case
    standing = {"seated": seated, "ended": ended, "readable_by_players": readable}
    assert (rooms.reads(room, **standing),
            rooms.writes(room, signed_in=True, **standing)) == expected
    assert rooms.writes(room, signed_in=False, **standing) is False


@pytest.mark.django_db
def test_the_audience_of_a_push_follows_the_seat_holders_at_the_send(make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    admin = make_user(is_superuser=True)
    match = two_player_han(alice, bob)
    room = ChatRoom(match=match, kind="players")
    before = services.audience(match, room, bob.pk)
    assert [rooms.receives(before, who) for who in (alice, bob, carol, AnonymousUser())] \
        == [True, True, False, False]
    with eager_celery():
        clock_services.hand_seat_to_bot(user=admin, match_id=match.pk, position=0,
                                        bot_kind="random")
    after = services.audience(Match.objects.get(pk=match.pk), room, bob.pk)
    assert [rooms.receives(after, who) for who in (alice, bob, carol)] == [False, True, False]
    muted = {**before, "muted_by": [alice.pk]}
    assert [rooms.receives(muted, who) for who in (alice, bob)] == [False, True]
