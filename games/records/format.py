"""What every game record shares: the format's name and version, the bounds a record
must keep, and the state digest that lets a verifier name the first ply that differs."""

from __future__ import annotations

import hashlib
import json
from typing import Any

FORMAT_NAME = "han-hansa-record"
#: bumped whenever a field changes meaning; verification refuses versions it does not know
FORMAT_VERSION = 1

#: a verified record is replayed move by move: bound the work one request can ask for
#: (the longest real games are a few hundred moves)
MAX_RECORD_MOVES = 5000
MAX_SEED_LENGTH = 128


def state_digest(state_json: Any) -> str:
    """SHA-256 (hex) of the engine's JSON state in canonical form (sorted keys, no
    spaces). A record carries one per ply, so a changed move is found at its own ply even
    when the changed move is legal."""
    canonical = json.dumps(state_json, sort_keys=True, separators=(",", ":"),
                           ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()


def normalized_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (int keys become strings...), so a result
    computed now compares equal to one that went through a database or a file."""
    return json.loads(json.dumps(value))
