"""Scopes on the play socket (docs/play.md "Scopes"): the credential a ``hello`` signs in
with bounds every later operation, from one table (games/play/scopes.py): a move needs
match:play, the feed account:read, following a match nothing. A refusal is an error
frame with code ``insufficient_scope`` naming the scope, and the operation never runs."""

from __future__ import annotations

import asyncio
import json

import pytest

from accounts.scopes import ALL_SCOPES
from games.play import hub as hub_module
from games.play import operations
from games.play.connection import PlayConnection
from games.play.protocol import OPS
from games.play.scopes import OP_SCOPES
from tests.credentials import ScopedCredential

pytestmark = pytest.mark.django_db

MOVE = {"op": "move", "ref": "m1", "match": "7", "move": {"type": "pass"}}
FEED = {"op": "feed", "ref": "f1"}
CHAT = {"op": "chat", "ref": "c1", "match": "7", "room": "players", "text": "hi"}


class _Hub:
    """The hub's threads, run inline, remembering what ran (a refused op runs nothing)."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    async def run(self, function, *args):
        self.ran.append(function.__name__)
        if function is operations.play_move:
            return 4  # the ply the move brought the match to
        return function(*args)

    def watch_access(self) -> None:
        pass


def _frames(socket: PlayConnection) -> list[dict]:
    frames = []
    while not socket._queue.empty():
        frames.append(json.loads(socket._queue.get_nowait()))
    return frames


def _signed_in(user, scope: str, monkeypatch) -> tuple[PlayConnection, _Hub]:
    """A socket whose hello carried a credential limited to ``scope``."""
    hub = _Hub()
    monkeypatch.setattr(hub_module, "_hub", hub)  # what every hub() of the socket returns
    monkeypatch.setattr(operations, "credential_for_token",
                        lambda key: (user, ScopedCredential(scope)))
    socket = PlayConnection({"type": "websocket", "headers": [], "client": ("10.0.0.1", 1)},
                            None, None)
    assert asyncio.run(socket._hello(json.dumps({"op": "hello",
                                                 "token": "limited"})))
    assert [frame["op"] for frame in _frames(socket)] == ["welcome"]
    return socket, hub


def test_the_table_names_every_operation_of_the_protocol():
    assert set(OP_SCOPES) == set(OPS)
    assert {scope for scope in OP_SCOPES.values() if scope} <= ALL_SCOPES
    assert OP_SCOPES["subscribe"] is None and OP_SCOPES["hello"] is None


@pytest.mark.parametrize(("message", "scope", "needed"), [
    (MOVE, "account:read match:write", "match:play"),
    (FEED, "match:play match:write", "account:read"),
    (CHAT, "match:play account:read", "chat:write"),
])
def test_an_operation_without_its_scope_is_refused_naming_it(user, monkeypatch, message,
                                                            scope, needed):
    socket, hub = _signed_in(user, scope, monkeypatch)
    hub.ran.clear()
    asyncio.run(socket._answer(json.dumps(message)))
    (frame,) = _frames(socket)
    assert frame["op"] == "error" and frame["ref"] == message["ref"]
    assert frame["error"]["code"] == "insufficient_scope"
    assert frame["error"]["details"] == {"scope": needed}
    assert hub.ran == []  # refused before anything ran


def test_with_match_play_a_move_is_played(user, monkeypatch):
    socket, hub = _signed_in(user, "match:play", monkeypatch)
    asyncio.run(socket._answer(json.dumps(MOVE)))
    assert [(frame["op"], frame.get("ply")) for frame in _frames(socket)] == [("ack", 4)]
    assert "play_move" in hub.ran


def test_a_first_party_token_s_socket_may_do_everything(user, token, monkeypatch):
    hub = _Hub()
    monkeypatch.setattr(hub_module, "_hub", hub)  # what every hub() of the socket returns
    # the real token's credential, looked up here: the stand-in hub runs inline, in the
    # event loop, where the database may not be used
    credential = operations.credential_for_token(token.key)
    monkeypatch.setattr(operations, "credential_for_token", lambda key: credential)
    socket = PlayConnection({"type": "websocket", "headers": [], "client": ("10.0.0.1", 1)},
                            None, None)
    assert asyncio.run(socket._hello(json.dumps({"op": "hello",
                                                             "token": token.key})))
    assert socket.credential is not None and socket.credential.key == token.key
    _frames(socket)
    asyncio.run(socket._answer(json.dumps(MOVE)))
    assert [frame["op"] for frame in _frames(socket)] == ["ack"]
