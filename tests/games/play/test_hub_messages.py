"""A play hub's handling of a change's ready-made frames (games/play/hub.py ``deliver``),
without sockets or Redis: a follower at the change's ply gets the frame of the seat its
user held at the change, as it came, whatever seat it was sent before; and a message in the
shape of an earlier release (bodies, not frames; or no seat holders: a rolling restart
mixes releases) makes the hub read its followers up to date instead of failing. The resync
check reads a follower up to date when its user's seat changed (``out_of_step``)."""

from __future__ import annotations

import pytest

from games.live.frames import SPECTATOR
from games.play.hub import Follow, Hub, _MatchFollowers

#: a seated follower's push is a look: known here that nobody is mailable
pytestmark = pytest.mark.usefixtures("nobody_mailable")


class _User:
    def __init__(self, pk: int | None) -> None:
        self.pk, self.is_authenticated = pk, pk is not None


#: the user who holds each seat in these tests' match 7 (seat 1: a bot's)
ANN, BOB = 10, 11
HOLDERS = {str(ANN): 0}


class _Socket:
    def __init__(self, seat: int | None, ply: int, user: int | None = None) -> None:
        self.follows = {7: Follow(ply=ply, status="active", seat=seat)}
        self.sent: list[str] = []
        self.user = _User(ANN if user is None and seat == 0 else user)

    def push(self, match_id: int, text: str) -> None:
        self.sent.append(text)


def _hub_following(*sockets) -> tuple[Hub, list]:
    hub = Hub()
    hub._matches[7] = _MatchFollowers(sockets=set(sockets))
    refreshed = []
    hub.refresh_soon = lambda match_id, ply=None, cause=None: refreshed.append((match_id, ply))
    return hub, refreshed


def _message(**fields) -> dict:
    return {"type": "play.pushes", "match_id": 7, "since": 3, "ply": 4, "status": "active",
            "holders": HOLDERS, **fields}


FRAMES = {"0": '{"op":"update","seat":0}', "1": '{"op":"update","seat":1}',
          SPECTATOR: '{"op":"update","seat":null}'}


def test_each_follower_gets_its_seats_frame_as_it_came():
    seat, spectator = _Socket(seat=0, ply=3), _Socket(seat=None, ply=3)
    hub, refreshed = _hub_following(seat, spectator)
    hub.deliver(_message(frames={"0": '{"op":"update","seat":0}', "1": "x",
                                 SPECTATOR: '{"op":"update","seat":null}'}))
    assert seat.sent == ['{"op":"update","seat":0}']
    assert spectator.sent == ['{"op":"update","seat":null}']
    assert seat.follows[7].ply == 4 and refreshed == []


def test_a_message_of_the_release_before_reads_the_followers_up_to_date():
    socket = _Socket(seat=0, ply=3)
    hub, refreshed = _hub_following(socket)
    hub.deliver(_message(bodies={"0": {"seat": 0}}))
    assert socket.sent == [] and socket.follows[7].ply == 3
    assert refreshed == [(7, 4)]


def test_an_end_without_a_move_reaches_each_follower_at_its_ply_once():
    """The scoring's end (``frames.change_frames`` with since == ply): a follower sent that
    ply with another status gets it, once; one already sent the end gets nothing; one
    behind is read up to date."""
    at_ply, finished, behind = (_Socket(seat=0, ply=4), _Socket(seat=None, ply=4),
                                _Socket(seat=0, ply=3))
    at_ply.follows[7].status = "scoring"
    finished.follows[7].status = "finished"
    hub, refreshed = _hub_following(at_ply, finished, behind)
    end = _message(since=4, ply=4, status="finished",
                   frames={"0": '{"op":"update","status":"finished"}', "1": "x",
                           SPECTATOR: '{"op":"update","seat":null}'})
    hub.deliver(end)
    assert refreshed == [(7, 4)]  # the one behind, read up to date
    hub.deliver(end)  # again (a retried scoring): nothing more
    assert at_ply.sent == ['{"op":"update","status":"finished"}']
    assert at_ply.follows[7].status == "finished"
    assert finished.sent == [] and behind.sent == []


def test_a_follower_whose_seat_passed_to_a_bot_gets_the_spectators_frame():
    """Ann was sent seat 0's frames; her seat was handed to a bot (a timeout) and the bot's
    move reached the hub before any re-read: she gets what a spectator gets, and the hub
    now knows her as one."""
    ann = _Socket(seat=0, ply=3)
    hub, refreshed = _hub_following(ann)
    hub.deliver(_message(frames=FRAMES, holders={}))
    assert ann.sent == [FRAMES[SPECTATOR]]
    assert ann.follows[7].seat is None and refreshed == []


def test_a_follower_who_now_holds_a_seat_gets_that_seats_frame():
    """Bob was a spectator and reclaimed (or was given) seat 1: its frame is his now."""
    bob = _Socket(seat=None, ply=3, user=BOB)
    hub, _refreshed = _hub_following(bob)
    hub.deliver(_message(frames=FRAMES, holders={str(BOB): 1}))
    assert bob.sent == [FRAMES["1"]] and bob.follows[7].seat == 1


def test_frames_without_seat_holders_read_the_followers_up_to_date():
    """A message of the release before this one (no ``holders``): its seat cannot be
    trusted, so nothing of it is sent; the followers are read as who they are."""
    ann = _Socket(seat=0, ply=3)
    hub, refreshed = _hub_following(ann)
    message = _message(frames=FRAMES)
    del message["holders"]
    hub.deliver(message)
    assert ann.sent == [] and refreshed == [(7, 4)]


def test_the_resync_check_notices_a_seat_that_changed_hands():
    """Same ply, same status, but Ann no longer holds seat 0: she is read up to date."""
    ann, spectator = _Socket(seat=0, ply=4), _Socket(seat=None, ply=4)
    hub, _refreshed = _hub_following(ann, spectator)
    assert hub.out_of_step({7: (4, "active", {str(ANN): 0})}) == []
    assert hub.out_of_step({7: (4, "active", {})}) == [7]
    assert hub.out_of_step({7: (5, "active", {str(ANN): 0})}) == [7]
