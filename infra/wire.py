"""JSON as the service sends it over its sockets and Pub/Sub: orjson, times in ISO 8601
with "Z" for UTC (as REST writes them), keys that are not strings (a seat number) as
``json.dumps`` writes them, and lazy translations as their text. One encoder, so a frame
built in one process (a change's frames, games/live/frames.py) reads exactly as one
built in another (the play socket's frames, games/play/protocol.py), and one way to write
a server frame (``frame``) for both."""

from __future__ import annotations

from typing import Any

import orjson
from django.utils.encoding import force_str

_DUMP_OPTIONS = orjson.OPT_UTC_Z | orjson.OPT_NON_STR_KEYS


def dumps(value) -> bytes:
    return orjson.dumps(value, option=_DUMP_OPTIONS, default=force_str)


def frame(op: str, ref: Any = None, **fields) -> str:
    """One server frame of the play socket (docs/play.md): ``{"op", "ref"?, ...}`` as JSON
    text. orjson: encoding the pushes is most of what a socket spends per move beside the
    database."""
    body = {"op": op, **({"ref": ref} if ref is not None else {}), **fields}
    return dumps(body).decode()
