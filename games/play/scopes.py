"""The scope each play-socket operation needs of the credential its ``hello`` carried
(accounts/scopes.py; docs/play.md "Scopes"), in one table checked before any operation
runs (infra/credential_scopes.py's rule, as REST's and GraphQL's).

Following a match is a public read (what an anonymous socket may do, the spectator's view
for a non-player); the feed is the player's own; a move, a resign and a reclaim are
playing. The table names every operation of the protocol (a test checks it against
games/play/protocol.py's ``OPS``).
"""

from __future__ import annotations

from infra import credential_scopes
from infra.observability import metrics

OP_SCOPES: dict[str, str | None] = {
    "hello": None,
    "ping": None,
    "subscribe": None,
    "unsubscribe": None,
    "feed": "account:read",
    "move": "match:play",
    "chat": "chat:write",  # as REST's POST of a message (docs/chat.md)
}


def check_op_scope(op: str, user, credential) -> None:
    """Count the message for the socket's app (metrics.app_label) and raise
    ``InsufficientScope`` (answered as an error frame with that code) when the socket's
    credential lacks what ``op`` needs. ``op`` is one the protocol knows
    (games/play/protocol.py refuses any other before this)."""
    refused = credential_scopes.lacks(user, credential, OP_SCOPES[op])
    metrics.app_request(metrics.app_label(user, credential), metrics.PLAY, failed=refused)
    if refused:
        raise credential_scopes.InsufficientScope(OP_SCOPES[op])
