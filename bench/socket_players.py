"""The load test's play-socket mode (bench/load_test.py --socket): each locust user is one
person playing two-seat matches against a greedy bot over the play socket
(docs/play.md), one match after another, with a spectator watching each of its matches.

Two sockets per match. The issue asks for 500 two-player matches with one human seat each
plus a bot, and for 1,000 open sockets; a match has one human seat, so each match gets a
second socket: a spectator's (anonymous, ``hello`` with ``token: null``) that follows the
same match. That is the common second reader of a live match (someone watching, a
stream), and it costs the server what a second reader costs: its own push, built for a
spectator's view, on every change. The user holds both sockets for its whole life:

- the **player's socket** signs in with the user's token, subscribes to its match, and,
  whenever the pushed ``legal_moves`` say its seat must act, thinks 5-10 s like a fast
  human and sends one of them with ``expected_ply``;
- the **spectator's socket** subscribes to the same match and only reads.

Matches are created over REST (``POST /api/v1/matches/``, locust's "create match" row),
Han for even user numbers and Hansa for odd ones, seat 1 given to a greedy bot; when a
match ends (its push says so) both sockets unsubscribe and the next match starts.

Custom locust events (request type ``WS``):

- ``move ack``: from sending ``move`` to its ``ack`` (a ``refused``, an ``error`` or no
  answer within 60 s is a failure, and so is the socket closing first: named apart, "socket
  closed before the answer", so a lost answer is not mistaken for a closed socket);
- ``bot reply push``: from the ``ack`` of a human move to the arrival, on the player's
  socket, of the ``update`` carrying the bot's next move (the bot task queued, played by
  a worker, committed, announced on the channel layer, read and pushed by the web tier);
- failures ``push gap`` (an ``update`` whose ``since`` is not the previous ``ply`` of that
  match on that socket, or whose moves are not exactly the plies from ``since`` to
  ``ply``: a lost or doubled move as a client sees it), ``error frame``, ``socket closed``.

What the server's log must agree with is written when the test stops to ``LOAD_RECORD``
(JSON): every acknowledged ``(match, ply)`` and the counts above; load_test.py checks
each acknowledged move is in the log, by the human seat, at the ply before the ack's.
``LOAD_SOCKETS`` (a file) holds how many sockets are open so far, for the memory
sample. Locust's gevent makes websocket-client's blocking sockets cooperative: one
greenlet reads each socket.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time

import gevent
import orjson
import websocket
from gevent.event import AsyncResult, Event
from locust import FastHttpUser, events, task
from locust_matches import create_bot_match
from socket_chat import ChatBeside, is_chatting

HOSTS = [host for host in os.environ.get("LOAD_HOSTS", "http://127.0.0.1:8000").split(",")
         if host]
TOKENS = json.loads(open(os.environ["LOAD_TOKENS"]).read()) if "LOAD_TOKENS" in os.environ \
    else []
THINK = (float(os.environ.get("THINK_MIN_S", 5)), float(os.environ.get("THINK_MAX_S", 10)))
SEED = int(os.environ.get("LOAD_SEED", 14))
ANSWER_S = 60.0
#: what a request waiting for its answer is handed when its socket closes
_CLOSED = object()
#: the events whose every time is kept with the moment it ended (RECORD["timings"])
TIMED = ("move ack", "bot reply push")

_numbers = itertools.count()
#: what load_test.py reads after the run (this locust process's users together)
RECORD: dict = {"acks": [], "timings": {}, "push_gaps": 0, "pushes": 0, "error_frames": {},
                "closed": 0, "move_ack_ms": {"chatting": [], "quiet": []}}
_open_sockets = 0


def _note_open(count: int) -> None:
    global _open_sockets
    _open_sockets += count
    if path := os.environ.get("LOAD_SOCKETS"):
        with open(path, "w") as handle:
            handle.write(str(_open_sockets))


@events.test_stop.add_listener
def _write_record(environment, **_kwargs) -> None:
    if path := os.environ.get("LOAD_RECORD"):
        with open(path, "w") as handle:
            json.dump(RECORD, handle)


class PlaySocket:
    """One play socket: ``hello`` sent and ``welcome`` read on opening, then one greenlet
    reads every frame; pushes are checked for gaps and kept (``latest``), answers to
    ``ref``s are handed to whoever waits for them."""

    def __init__(self, user: SocketPlayer, url: str, token: str | None, role: str) -> None:
        self.user, self.role = user, role
        self.latest: dict[str, dict] = {}  # match id -> its last sync or update here
        self.changed = Event()
        self.waiting: dict[str, AsyncResult] = {}
        self.on_frame = None  # the player's hook (bot reply timing), before anyone waiting
        self.closing = False
        self._refs = itertools.count()
        started = time.perf_counter()
        # skip_utf8_validation: without the optional wsaccel, websocket-client checks each
        # text frame's UTF-8 byte by byte in Python, three quarters of this client's CPU
        # under load (py-spy), which the server then lacks on a shared machine. Decoding
        # the frame (str, in C) and orjson.loads still refuse bad UTF-8.
        self.ws = websocket.create_connection(url, timeout=ANSWER_S, enable_multithread=True,
                                              skip_utf8_validation=True)
        self.ws.send(json.dumps({"op": "hello", "token": token, "ref": "hello"}))
        welcome = json.loads(self.ws.recv())
        user.fire(f"{role} hello", started, welcome if welcome.get("op") == "welcome"
                  else RuntimeError(json.dumps(welcome)[:200]))
        self.ws.settimeout(None)
        self.reader = gevent.spawn(self._read)

    def request(self, message: dict, name: str | None = None) -> dict | None:
        """Send ``message`` with a fresh ref; its answer (None after ANSWER_S). With
        ``name``, the round trip is a locust event (an answer other than ack, subscribed
        or unsubscribed is a failure)."""
        ref = f"{self.role[0]}{next(self._refs)}"
        waiter = self.waiting[ref] = AsyncResult()
        started = time.perf_counter()
        self.ws.send(json.dumps({**message, "ref": ref}))
        answer = waiter.wait(timeout=ANSWER_S) if not self.closing else _CLOSED
        self.waiting.pop(ref, None)
        # a socket that closed before the answer is not a missing answer: say which it was
        missing = ("socket closed before the answer" if answer is _CLOSED
                   else f"no answer in {ANSWER_S:.0f} s")
        answer = None if answer is _CLOSED else answer
        if name:
            good = answer is not None and answer["op"] in ("ack", "subscribed", "unsubscribed")
            self.user.fire(name, started, answer if good else RuntimeError(
                json.dumps(answer)[:200] if answer else missing))
        return answer

    def close(self) -> None:
        self.closing = True
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - already gone
            pass

    def _read(self) -> None:
        try:
            while True:
                text = self.ws.recv()
                if not text:
                    raise websocket.WebSocketConnectionClosedException("closed")
                self._handle(orjson.loads(text), text)  # a tenth of the client's CPU with json
        except Exception as exc:  # noqa: BLE001 - the socket is gone: say so unless we closed it
            if not self.closing:
                RECORD["closed"] += 1
                self.user.fire(f"{self.role} socket closed", time.perf_counter(), exc)
            for waiter in self.waiting.values():
                waiter.set(_CLOSED)

    def _handle(self, frame: dict, text: str) -> None:
        op = frame.get("op")
        if op in ("sync", "update"):
            self._push(frame)
        elif op == "error":
            code = frame["error"]["code"]
            RECORD["error_frames"][code] = RECORD["error_frames"].get(code, 0) + 1
            self.user.fire("error frame", time.perf_counter(), RuntimeError(text[:200]))
        if self.on_frame is not None:
            self.on_frame(frame)
        if "ref" in frame and frame["ref"] in self.waiting:
            self.waiting[frame["ref"]].set(frame)
        self.changed.set()

    def _push(self, frame: dict) -> None:
        RECORD["pushes"] += 1
        previous = self.latest.get(frame["match"])
        plies = [move["ply"] for move in frame["moves"]]
        gap = plies != list(range(frame["since"], frame["ply"])) or (
            frame["op"] == "update" and (previous is None or frame["since"] != previous["ply"]))
        if gap:
            RECORD["push_gaps"] += 1
            self.user.fire("push gap", time.perf_counter(), RuntimeError(
                f"{self.role} match {frame['match']}: since {frame['since']} after ply "
                f"{previous and previous['ply']}, moves {plies[:5]}..., ply {frame['ply']}"))
        self.latest[frame["match"]] = frame


class SocketPlayer(FastHttpUser):
    host = HOSTS[0]
    concurrency = 1  # the REST connection only creates matches

    def __init__(self, environment):
        self.number = next(_numbers)
        self.host = HOSTS[self.number % len(HOSTS)]  # spread over the instances
        super().__init__(environment)
        self.token = TOKENS[self.number % len(TOKENS)]
        self.headers = {"Authorization": f"Token {self.token}"}
        self.game = ("han", "hansa")[self.number % 2]
        self.random = random.Random(SEED * 100003 + self.number)
        self.sockets: list[PlaySocket] = []
        self.last_ack: tuple[float, int] | None = None  # (when, ply) of the last human ack
        self.seat = 0

    def fire(self, name: str, started: float, outcome) -> None:
        """One locust event of type WS: a failure when ``outcome`` is an exception."""
        failed = isinstance(outcome, Exception)
        elapsed_ms = (time.perf_counter() - started) * 1000
        if name in TIMED:  # when each came, for bursts (socket_checks.slow_windows)
            RECORD["timings"].setdefault(name, []).append([round(time.time(), 3),
                                                           round(elapsed_ms, 1)])
        self.environment.events.request.fire(
            request_type="WS", name=name, response_time=elapsed_ms,
            response_length=0, exception=outcome if failed else None, context={})

    def on_start(self) -> None:
        url = self.host.replace("http", "ws", 1) + "/play/"
        self.player = PlaySocket(self, url, self.token, "player")
        self.spectator = PlaySocket(self, url, None, "spectator")
        self.sockets = [self.player, self.spectator]
        self.player.on_frame = self._bot_reply
        # --chat: half the people chat beside their moves (bench/socket_chat.py)
        self.chat = ChatBeside(self) if is_chatting(self.number) else None
        if self.chat is not None:
            self.spectator.on_frame = self.chat.on_spectator_frame
        _note_open(2)

    def on_stop(self) -> None:
        if self.chat is not None:
            self.chat.stop()
        for socket in self.sockets:
            socket.close()

    def _bot_reply(self, frame: dict) -> None:
        """On the player's socket, in the order frames arrive (the reading greenlet, before
        the moving one wakes): an ``ack`` starts the clock, the first ``update`` after it
        that carries a bot move stops it."""
        if frame["op"] == "ack":
            self.last_ack = (time.perf_counter(), frame["ply"])
        elif frame["op"] == "update" and self.last_ack is not None:
            when, ply = self.last_ack
            if any(move["seat"] != self.seat and move["ply"] >= ply
                   for move in frame["moves"]):
                self.fire("bot reply push", when, frame)
                self.last_ack = None

    @task
    def play_matches(self):
        while True:
            self.play_one_match()

    def play_one_match(self) -> None:
        detail = create_bot_match(self.client, self.headers, self.game, pause_s=1)
        if detail is None:
            return
        match, self.seat, self.last_ack = str(detail["id"]), detail["your_seat"], None
        for socket in self.sockets:
            answer = socket.request({"op": "subscribe", "match": match},
                                    f"{socket.role} subscribe")
            if answer is None or answer["op"] != "subscribed":
                return
        moved_at = None
        if self.chat is not None:
            self.chat.match = match
        while True:
            self.player.changed.clear()  # before reading: a push after the read wakes us
            push = self.player.latest.get(match)
            if push is not None and push["status"] != "active":
                break
            if push is None or not push["legal_moves"] or push["ply"] == moved_at:
                self.player.changed.wait(timeout=5)
                continue
            gevent.sleep(self.random.uniform(*THINK))
            push = self.player.latest[match]  # a simultaneous choice may have landed
            if push["status"] != "active" or not push["legal_moves"]:
                continue
            moved_at = push["ply"]
            started = time.perf_counter()
            answer = self.player.request(
                {"op": "move", "match": match, "move": self.random.choice(push["legal_moves"]),
                 "expected_ply": push["ply"]}, "move ack")
            if answer is not None and answer["op"] == "ack":
                RECORD["acks"].append([int(match), answer["ply"]])
                RECORD["move_ack_ms"]["chatting" if self.chat else "quiet"].append(
                    round((time.perf_counter() - started) * 1000, 1))
        if self.chat is not None:
            self.chat.match = None
        for socket in self.sockets:
            socket.request({"op": "unsubscribe", "match": match})
            socket.latest.pop(match, None)
