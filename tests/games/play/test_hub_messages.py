"""A play hub's handling of a move's ready-made pushes (games/play/hub.py ``deliver``),
without sockets or Redis: a follower at the move's ply gets its seat's frame as it came,
and a message in the shape of the release before (bodies, not frames: a rolling restart
mixes releases) makes the hub read its followers up to date instead of failing."""

from __future__ import annotations

from games.matches.pushes import SPECTATOR
from games.play.hub import Follow, Hub, _MatchFollowers


class _Socket:
    def __init__(self, seat: int | None, ply: int) -> None:
        self.follows = {7: Follow(ply=ply, status="active", seat=seat)}
        self.sent: list[str] = []

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
            **fields}


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
    """``pushes.status_pushes`` (the scoring's end: since == ply): a follower sent that
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
