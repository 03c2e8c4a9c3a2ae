"""``GET /api/v1/stream/`` in the OpenAPI document (issue 22): the feed is an asynchronous
Django view (games/api/feed/views.py), not a DRF one, so drf-spectacular cannot see it; the
postprocessing hook (games/api/openapi.py) adds this path and the ``FeedEvent``
component. Its body is newline-delimited JSON (``application/x-ndjson``, as lichess
documents its streams): every line is one ``FeedEvent``, or empty (keep-alive)."""

from __future__ import annotations

ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
NULLABLE_INTEGER = {"type": ["integer", "null"]}

FEED_COMPONENTS = {
    "FeedEvent": {
        "type": "object",
        "description": "One event of your feed (docs/feed.md): id, kind and created_at, and "
        "the fields of its kind (your_turn: match_id, game, ply, seat, deadline; "
        "match_started: match_id, game, players; match_finished: match_id, game, status; "
        "invitation_received: invitation_id, match_id, inviter, is_rematch, position; "
        "matched: request_id, match_id, game, players).",
        "required": ["id", "kind", "created_at"],
        "properties": {
            "id": {"type": "integer", "description": "Increasing; pass the last one you saw "
                   "as last_event_id (or Last-Event-ID) when you reconnect."},
            "kind": {"type": "string", "enum": ["your_turn", "match_started", "match_finished",
                                                "invitation_received", "matched"]},
            "created_at": {"type": "string", "format": "date-time"},
            "match_id": {"type": "integer"},
            "game": {"type": "string"},
            "ply": {"type": "integer"},
            "seat": {"type": "integer"},
            "deadline": {"type": ["string", "null"], "format": "date-time",
                         "description": "When your clock runs out; null without a clock."},
            "players": {"type": "integer"},
            "status": {"type": "string", "description": "finished or aborted."},
            "invitation_id": {"type": "integer"},
            "inviter": {"type": ["string", "null"]},
            "is_rematch": {"type": "boolean"},
            "position": NULLABLE_INTEGER,
            "request_id": {"type": "integer"},
        },
    },
}

STREAM_PATH = {
    "get": {
        "operationId": "stream_feed",
        "summary": "Your feed, kept open: one JSON event per line (NDJSON)",
        "description": "First every event after last_event_id (the query parameter, or the "
        "Last-Event-ID header), then each new one as it happens; an empty line at once and "
        "after 20 s of silence (skip empty lines). Ends when the token is revoked. "
        "docs/feed.md.",
        "tags": ["feed"],
        "parameters": [
            {"in": "query", "name": "last_event_id", "schema": {"type": "integer",
                                                                "minimum": 0},
             "description": "The id of the last event you saw."},
            {"in": "header", "name": "Last-Event-ID", "schema": {"type": "integer",
                                                                 "minimum": 0},
             "description": "The same, as a header (EventSource's name)."},
        ],
        "security": [{"tokenAuth": []}],
        "responses": {
            "200": {"description": "Newline-delimited JSON, kept open: each line one "
                    "FeedEvent (or empty).",
                    "content": {"application/x-ndjson": {
                        "schema": {"$ref": "#/components/schemas/FeedEvent"}}}},
            "400": {"description": "A bad last_event_id (invalid_request), or a control "
                    "character in the query string (invalid_input).", "content": ERROR},
            "401": {"description": "No valid token (not_authenticated).", "content": ERROR},
            "405": {"description": "Only GET (method_not_allowed).", "content": ERROR},
        },
    },
}
