"""The play socket's messages (docs/play.md): reading a client frame into a checked
request, and writing the server's frames. No I/O and no database here.

A frame the protocol cannot take becomes a ``ProtocolError`` with a stable code; the
connection answers it with an ``error`` frame and goes on (only a missing ``hello``
closes the socket).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from django.utils.translation import gettext as _

from infra import text_inputs
from infra.numbers import JSON_SAFE_MAX, parse_whole_number
from infra.parsers import MAX_JSON_DEPTH, json_depth
from infra.text_inputs import CONTROL_CHARACTERS, ControlCharacters, find_control_characters
from infra.wire import frame  # the server's frames, one writer with games/live/frames.py

#: close codes (docs/play.md, "Close codes")
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_SERVER_ERROR = 1011
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TOO_SLOW = 4408
CLOSE_FLOODING = 4429  # went on sending past the message rate after ``throttled``
CLOSE_TOO_MANY_SOCKETS = 4430  # the user or the address holds its cap of sockets

#: what each op must or may carry, besides ``op`` and ``ref``
OPS: dict[str, tuple[set[str], set[str]]] = {
    "hello": (set(), {"token", "client", "lang"}),
    "subscribe": ({"match"}, {"since"}),
    "unsubscribe": ({"match"}, set()),
    "feed": (set(), {"after"}),
    "move": ({"match", "move"}, {"expected_ply"}),
    "chat": ({"match", "room", "text"}, set()),
    "ping": (set(), set()),
}
MAX_REF_LENGTH = 64


class ProtocolError(Exception):
    """A frame the protocol cannot take: answered with ``{"op": "error", ...}``."""

    def __init__(self, code: str, message: str, details: dict | None = None,
                 ref: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.details, self.ref = code, message, details or {}, ref


@dataclass(frozen=True)
class Request:
    op: str
    ref: Any
    fields: dict


def read_frame(text: str | bytes | None, *, max_bytes: int) -> Request:
    """The request in one client frame, or ProtocolError (``payload_too_large``,
    ``malformed_message``, ``invalid_input`` for a text holding a character no text may
    hold (infra/text_inputs.py), ``unknown_op``)."""
    if text is None:
        raise ProtocolError("malformed_message", _("Frames are JSON text."))
    if _frame_bytes(text, max_bytes) > max_bytes:
        raise ProtocolError("payload_too_large",
                            _("A message may be at most %(count)s bytes long.")
                            % {"count": max_bytes},
                            {"max_bytes": max_bytes})
    try:
        message = orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError):
        raise ProtocolError("malformed_message", _("A message is one JSON object.")) from None
    if not isinstance(message, dict):
        raise ProtocolError("malformed_message", _("A message is one JSON object."))
    if json_depth(message) > MAX_JSON_DEPTH:
        raise ProtocolError("malformed_message",
                            _("A message may nest at most %(count)s levels deep.")
                            % {"count": MAX_JSON_DEPTH})
    ref = message.get("ref")
    refusal = _ref_refusal(ref)
    if refusal is not None:
        raise refusal
    where = find_control_characters(message, "")
    if where is not None:  # every text a client sends: infra/text_inputs.py's one rule
        refusal = ControlCharacters(where)
        raise ProtocolError(refusal.code, refusal.message, refusal.details, ref=ref)
    op = message.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise ProtocolError("unknown_op",
                            _("op must be one of %(ops)s.") % {"ops": ", ".join(OPS)},
                            {"ops": list(OPS)}, ref=ref)
    required, optional = OPS[op]
    fields = {key: value for key, value in message.items() if key not in ("op", "ref")}
    missing = sorted(required - fields.keys())
    if missing:
        raise ProtocolError("malformed_message", _("%(op)s needs %(fields)s.")
                            % {"op": op, "fields": ", ".join(missing)},
                            {"missing": missing}, ref=ref)
    unknown = sorted(fields.keys() - required - optional)
    if unknown:
        raise ProtocolError("malformed_message", _("%(op)s takes no %(fields)s.")
                            % {"op": op, "fields": ", ".join(unknown)},
                            {"unknown": unknown[:10]}, ref=ref)
    return Request(op=op, ref=ref, fields=fields)


#: the largest frame whose ``ref`` is read for a refusal it was not parsed for (over the
#: message rate): every request but a huge move fits, a chat op of 500 characters easily
REF_READ_MAX_BYTES = 8192


def ref_of(text: str | bytes | None) -> Any:
    """The ``ref`` of a frame that will not be handled (over the socket's message rate), so
    its refusal names the request it answers; None when the frame is larger than
    ``REF_READ_MAX_BYTES`` (not parsed: a flood's big frames cost no parsing), not a JSON
    object, or its ref is not one the protocol takes."""
    if text is None or _frame_bytes(text, REF_READ_MAX_BYTES) > REF_READ_MAX_BYTES:
        return None
    try:
        message = orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError):
        return None
    ref = message.get("ref") if isinstance(message, dict) else None
    return None if _ref_refusal(ref) is not None else ref


def _ref_refusal(ref: Any) -> ProtocolError | None:
    """Why a frame's ``ref`` cannot be echoed in its answer (the one rule of ``read_frame``
    and ``ref_of``), or None when it can, or is absent."""
    if ref is None:
        return None
    if not _valid_ref(ref):
        return ProtocolError("malformed_message",
                             _("ref must be a string or a number of at most %(count)s "
                               "characters.") % {"count": MAX_REF_LENGTH}, {"field": "ref"})
    if isinstance(ref, str) and CONTROL_CHARACTERS.search(ref):
        # a ref is echoed in the answer: one holding a NUL or a control is not (issue 39)
        return ProtocolError("malformed_message", f"ref: {text_inputs.MESSAGE}",
                             {"field": "ref", "code": "control_characters"})
    return None


def _frame_bytes(text: str | bytes, max_bytes: int) -> int:
    """The frame's length in bytes as it came over the wire (UTF-8), measured before it is
    parsed. A character takes at most 4 bytes, so a text of up to a quarter of the limit is
    under it without encoding; a longer one is encoded to count (a 1 MB frame: ~1 ms)."""
    if isinstance(text, bytes) or len(text) * 4 <= max_bytes or len(text) > max_bytes:
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _valid_ref(ref: Any) -> bool:
    if isinstance(ref, bool):
        return False
    if isinstance(ref, str):
        return len(ref) <= MAX_REF_LENGTH
    if isinstance(ref, int):
        return -(2**53) <= ref <= 2**53  # what a JavaScript number holds exactly
    return False


def optional_number(request: Request, field: str) -> int | None:
    """A field that must be a whole JSON number from 0 to JSON_SAFE_MAX when present
    (``since``, ``after``, ``expected_ply``), read by the API's one number rule
    (infra/numbers.py): values above 2**53 are refused, no client holds them exactly, and
    a string is refused (the protocol's numbers are JSON numbers). A refusal is
    ``malformed_message`` naming the field."""
    value = request.fields.get(field)
    if value is None:
        return None

    def refused(message: str, details: dict) -> ProtocolError:
        return ProtocolError("malformed_message", message, {"field": field, **details},
                             ref=request.ref)

    return parse_whole_number(value, field, high=JSON_SAFE_MAX, text=False, error=refused)


def error_frame(code: str, message: str, details: dict | None = None, ref: Any = None,
                **fields) -> str:
    return frame("error", ref, **fields,
                 error={"code": code, "message": message, "details": details or {}})
