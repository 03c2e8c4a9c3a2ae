"""The chat beside the moves in the load test's play-socket mode (bench/load_test.py
--socket --chat; docs/chat.md): half the people (``chatting``: every other pair of user
numbers, so Han and Hansa players alike) send one message every ``CHAT_EVERY_S`` (20 s,
the first at a random moment of that period) while their match runs; the other half only
move, so the move ack with and without chat beside it is measured in the same run, under
the same load.

A message goes over the player's socket (``{"op": "chat", ...}``) to the match's
spectators' room, which both of the user's sockets read: the player's own and its
spectator's (anonymous, another connection, maybe another web process), so its push
crosses the server's real path (commit, the sender thread, Redis Pub/Sub, every hub).

Custom locust events (type ``WS``): ``chat ack`` (from sending to the ``ack``; a
``refused`` or no answer is a failure) and ``chat push`` (from sending to the message's
``chat`` frame on the spectator's socket). Each move ack's time is kept by group in
``RECORD["move_ack_ms"]`` (``chatting``, ``quiet``) for load_test.py's comparison.
"""

from __future__ import annotations

import os
import time

import gevent

CHAT_EVERY_S = float(os.environ.get("CHAT_EVERY_S", 20))
ENABLED = os.environ.get("LOAD_CHAT") == "1"


def is_chatting(number: int) -> bool:
    """Whether user ``number`` chats: every other pair, so each half holds both games."""
    return ENABLED and (number // 2) % 2 == 0


class ChatBeside:
    """One chatting user's messages: sent from a greenlet of their own, timed to their
    push on the spectator's socket."""

    def __init__(self, user) -> None:
        self.user = user
        self.match: str | None = None  # the match running now (set by the player)
        self.sent: dict[str, float] = {}  # text -> when it was sent
        self._count = 0
        self.greenlet = gevent.spawn(self._talk)

    def on_spectator_frame(self, frame: dict) -> None:
        """The spectator socket's hook: a ``chat`` frame of ours stops its clock."""
        if frame.get("op") == "chat":
            started = self.sent.pop(frame.get("text"), None)
            if started is not None:
                self.user.fire("chat push", started, frame)

    def stop(self) -> None:
        self.greenlet.kill(block=False)

    def _talk(self) -> None:
        gevent.sleep(self.user.random.uniform(0, CHAT_EVERY_S))
        while True:
            started = time.perf_counter()
            if self.match is not None:
                self._say(self.match)
            gevent.sleep(max(0.0, CHAT_EVERY_S - (time.perf_counter() - started)))

    def _say(self, match: str) -> None:
        self._count += 1
        text = f"u{self.user.number} m{self._count}"
        self.sent[text] = time.perf_counter()
        answer = self.user.player.request(
            {"op": "chat", "match": match, "room": "spectators", "text": text}, "chat ack")
        if answer is None or answer.get("op") != "ack":
            self.sent.pop(text, None)  # refused: no push to wait for
