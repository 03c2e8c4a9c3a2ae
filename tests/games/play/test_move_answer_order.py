"""The answer to a move comes before any push of the ply it made (docs/play.md), even when
a push caused by the move reaches the socket's hub before the move's thread hands its
result back: the scoring that ends the match, a bot's reply or the resync check can
(the worker is quick and the event loop busy). The CI of stop 34 saw the scoring's
``update`` overtake the last move's ``ack``. Here the hub is a stand-in that delivers such
a push while the move is in flight, so the order does not depend on timing."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from games.matches.errors import StalePly
from games.play import hub as hub_module
from games.play.connection import PlayConnection
from games.play.hub import Follow
from games.play.looks_on_loop import LooksOnLoop
from games.play.protocol import Request
from infra.api_errors import ApiError

MATCH = 7

#: the seated socket's update is a look: known here that nobody is mailable
pytestmark = pytest.mark.usefixtures("nobody_mailable")


class _HubDeliveringMidMove:
    """A hub whose move, once committed, finds the worker's push already arrived."""

    def __init__(self, socket: PlayConnection, refusal: ApiError | None = None) -> None:
        self.socket, self.refusal = socket, refusal
        self.looks = LooksOnLoop(self.run)  # a seated update is a look (nobody mailable)

    async def run(self, function, *args):
        # the push that overtakes the move's own ack: what hub.deliver (the move's own
        # frames, handed over by its commit) or hub._refresh would do
        self.socket.send_update(MATCH, {"ply": 5, "status": "finished", "seat": 0,
                                        "since": 3, "moves": []})
        await asyncio.sleep(0)
        if self.refusal is not None:
            raise self.refusal
        return 4  # the ply the move brought the match to


def _socket() -> PlayConnection:
    socket = PlayConnection({"type": "websocket", "headers": [], "client": ("10.0.0.1", 1)},
                            None, None)
    socket.user = SimpleNamespace(is_authenticated=True, pk=1)
    socket.follows[MATCH] = Follow(ply=3, status="active", seat=0)
    return socket


def _queued(socket: PlayConnection) -> list[tuple[str, int | None]]:
    frames = []
    while not socket._queue.empty():
        frame = json.loads(socket._queue.get_nowait())
        frames.append((frame["op"], frame.get("ply")))
    return frames


def _move(socket: PlayConnection, hub, monkeypatch) -> None:
    monkeypatch.setattr(hub_module, "_hub", hub)  # what every hub() of the socket returns
    request = Request(op="move", ref="m1",
                      fields={"match": str(MATCH), "move": {"type": "pass"}, "expected_ply": 3})
    asyncio.run(socket._op_move(request))


def test_a_push_that_reaches_the_hub_mid_move_goes_out_after_the_ack(monkeypatch):
    socket = _socket()
    hub = _HubDeliveringMidMove(socket)
    _move(socket, hub, monkeypatch)
    assert _queued(socket) == [("ack", 4), ("update", 5)]
    assert socket._held == {}


def test_a_push_that_reaches_the_hub_mid_move_goes_out_after_the_refusal(monkeypatch):
    socket = _socket()
    hub = _HubDeliveringMidMove(socket, StalePly(details={"expected_ply": 3, "current_ply": 5}))
    _move(socket, hub, monkeypatch)
    assert _queued(socket) == [("refused", None), ("update", 5)]
    assert socket._held == {}


def test_pushes_of_other_matches_are_not_held(monkeypatch):
    socket = _socket()
    socket.follows[8] = Follow(ply=1, status="active", seat=None)
    hub = _HubDeliveringMidMove(socket)
    original = hub.run

    async def with_other_match(function, *args):
        socket.push(8, json.dumps({"op": "update", "ply": 2}))
        return await original(function, *args)

    hub.run = with_other_match
    _move(socket, hub, monkeypatch)
    assert _queued(socket) == [("update", 2), ("ack", 4), ("update", 5)]
