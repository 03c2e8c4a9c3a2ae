"""Fuzzing the play socket (/play/, docs/play.md): hypothesis strategies for frames (any
text, any bytes, any JSON, JSON objects with a known or unknown op and random fields, and
well-formed ops with random values), and a client that sends one frame over a real socket
and judges every answer to it.

A frame's answers are the frames that come before the pong of a ping sent right after it
(a socket answers in order). Judged a failure: an ``internal_error`` frame, a frame that is
not a JSON object with an op, a close 1011 (server error) or any close the docs do not list
for such a client, and no answer at all within ``ANSWER_TIMEOUT_S``. A first frame on a
fresh socket (``fresh``) stands for the hello. Used by tests/fuzz/test_socket_fuzz.py (a
few hundred examples in `make test`) and bench/fuzz_all.py (many)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.fuzz import known_issues

OPS = ["hello", "subscribe", "unsubscribe", "feed", "move", "chat", "ping"]
FIELDS = ["match", "since", "after", "move", "expected_ply", "token", "client", "lang", "ref",
          "room", "text"]
#: closes a fuzzing client may meet without a fault: flooding, too slow, too many sockets
#: (the socket limits of issue 39), and 4401 for a first frame that is no good hello
EXPECTED_CLOSES = {1000, 4401, 4408, 4429, 4430}
ANSWER_TIMEOUT_S = 15

_digits = st.integers(min_value=1, max_value=40).map(lambda n: "9" * n)
#: past int()'s 4,300 digits: the known class of issue 39 (tests/fuzz/known_issues.py)
_huge_digits = st.integers(min_value=4300, max_value=4400).map(lambda n: "1" * n)
_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False), st.text(max_size=24), _digits,
    st.sampled_from(["", "0", "-1", "1e9", "0x10", " 1", "1 ", "١٢", "NaN", "null", "true"]),
)
json_values = st.recursive(
    _leaves, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
_field_names = st.sampled_from(FIELDS) | st.text(max_size=10)


def _op_objects(match_ids: list[str]) -> st.SearchStrategy[dict]:
    """JSON objects with an op (known, or not) and random fields and values."""
    matches = st.sampled_from(match_ids) | json_values | _huge_digits
    values = json_values | matches
    op = st.sampled_from(OPS) | st.text(max_size=10) | json_values
    return st.builds(lambda o, f: {"op": o, **f}, op,
                     st.dictionaries(_field_names, values, max_size=5))


def _well_formed(match_ids: list[str]) -> st.SearchStrategy[dict]:
    """Each op with the fields it takes, the values random (numbers mostly)."""
    match = st.sampled_from(match_ids) | _digits | _huge_digits | st.text(max_size=12)
    number = st.integers(min_value=-(2**64), max_value=2**64) | _digits | _huge_digits \
        | json_values
    move = st.fixed_dictionaries(
        {"type": st.sampled_from(["place", "draw", "keep", "pass", "house", "trade"])
         | st.text(max_size=8)},
        optional={"cards": json_values, "space": json_values, "index": number})
    ref = st.none() | st.text(max_size=70) | st.integers()
    return st.one_of(
        st.fixed_dictionaries({"op": st.just("subscribe"), "match": match},
                              optional={"since": number, "ref": ref}),
        st.fixed_dictionaries({"op": st.just("unsubscribe"), "match": match},
                              optional={"ref": ref}),
        st.fixed_dictionaries({"op": st.just("feed")}, optional={"after": number, "ref": ref}),
        st.fixed_dictionaries({"op": st.just("move"), "match": match, "move": move | json_values},
                              optional={"expected_ply": number, "ref": ref}),
        st.fixed_dictionaries({"op": st.just("chat"), "match": match,
                               "room": st.sampled_from(["players", "spectators"])
                               | json_values, "text": json_values},
                              optional={"ref": ref}),
        st.fixed_dictionaries({"op": st.just("ping")}, optional={"ref": ref}),
        st.fixed_dictionaries({"op": st.just("hello")},
                              optional={"token": json_values, "lang": json_values,
                                        "client": json_values}),
    )


def _mangled(text: str, cut: int, junk: str) -> str:
    """A JSON text cut short or with junk inserted: almost valid."""
    cut = cut % (len(text) + 1)
    return text[:cut] + junk + text[cut + 1:] if junk else text[:cut]


def frames(match_ids: list[str]) -> st.SearchStrategy[str | bytes]:
    """Anything a client could send as one frame."""
    objects = _op_objects(match_ids) | _well_formed(match_ids)
    texts = objects.map(lambda value: json.dumps(value, ensure_ascii=False))
    return st.one_of(
        texts, texts, texts,
        json_values.map(json.dumps),
        st.builds(_mangled, texts, st.integers(min_value=0), st.text(max_size=3)),
        st.text(max_size=200),
        st.binary(max_size=200),
    )


@dataclass
class Verdict:
    problems: list[str] = field(default_factory=list)
    allowed: str | None = None  # a known issue-39 class (known_issues.py)
    answers: int = 0


class SocketFuzzer:
    """One authenticated socket, reopened whenever a frame got it closed."""

    def __init__(self, address: str, token: str) -> None:
        self.url = f"ws://{address}/play/"
        self.token = token
        self.ws = None
        self.refs = itertools.count()

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None

    def _open(self):
        return connect(self.url, open_timeout=20, close_timeout=5, max_size=None)

    def _signed_in(self):
        if self.ws is None:
            self.ws = self._open()
            self.ws.send(json.dumps({"op": "hello", "token": self.token}))
            welcome = json.loads(self.ws.recv(timeout=ANSWER_TIMEOUT_S))
            assert welcome["op"] == "welcome", welcome
        return self.ws

    def send(self, frame: str | bytes, fresh: bool = False) -> Verdict:
        """Send ``frame`` (as the first frame of a new socket when ``fresh``) and judge
        what comes back."""
        text = frame if isinstance(frame, str) else frame.decode("latin-1")
        verdict = Verdict()
        if fresh:
            ws = self._open()
        else:
            ws = self._signed_in()
        try:
            ws.send(frame)
            if fresh:
                self._judge_first(ws, verdict)
            else:
                self._judge_until_pong(ws, verdict)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code not in EXPECTED_CLOSES:
                verdict.problems.append(f"socket closed with {code} "
                                        f"({closed.rcvd.reason if closed.rcvd else ''})")
            if not fresh:
                self.ws = None
        except TimeoutError:
            verdict.problems.append(f"no answer within {ANSWER_TIMEOUT_S} s")
            if not fresh:
                self.close()
        finally:
            if fresh:
                ws.close()
        if verdict.problems:
            verdict.allowed = known_issues.allowed(text)
        return verdict

    def _judge_until_pong(self, ws, verdict: Verdict) -> None:
        ref = f"fuzz-{next(self.refs)}"
        ws.send(json.dumps({"op": "ping", "ref": ref}))
        while True:
            answer = self._answer(ws, verdict)
            if answer is not None and answer.get("op") == "pong" and answer.get("ref") == ref:
                return

    def _judge_first(self, ws, verdict: Verdict) -> None:
        """A fresh socket's first frame: welcome (then a ping proves it works on), or an
        error and a close 4401."""
        while True:
            answer = self._answer(ws, verdict)
            if answer is not None and answer.get("op") == "welcome":
                self._judge_until_pong(ws, verdict)
                return

    def _answer(self, ws, verdict: Verdict) -> dict | None:
        raw = ws.recv(timeout=ANSWER_TIMEOUT_S)
        verdict.answers += 1
        try:
            answer = json.loads(raw)
        except ValueError:
            verdict.problems.append(f"an answer that is not JSON: {raw[:200]!r}")
            return None
        if not isinstance(answer, dict) or not isinstance(answer.get("op"), str):
            verdict.problems.append(f"an answer without an op: {raw[:200]!r}")
            return None
        if answer["op"] == "error" and answer.get("error", {}).get("code") == "internal_error":
            verdict.problems.append(f"internal_error: {raw[:300]}")
        return answer
