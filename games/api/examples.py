"""Request and response examples shown in the OpenAPI schema of the games API.

Kept apart from the views so the views stay a page of parse-call-render. Game-specific
payloads (views, moves) are abbreviated: the real shapes come from each engine and are
listed live by GET /games/{game}/ and GET /matches/{id}/legal-moves/.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

_COMMITMENT = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def _error(name: str, status: int, code: str, message: str, details: dict | None = None):
    return OpenApiExample(
        name,
        value={"error": {"code": code, "message": message, "details": details or {}}},
        response_only=True,
        status_codes=[str(status)],
    )


ERROR_EXAMPLES = {
    "unknown_game": _error("Unknown game", 404, "unknown_game", "No game called 'chess'."),
    "match_not_found": _error("Unknown match", 404, "match_not_found", "No such match."),
    "match_full": _error("Match full", 409, "match_full", "Every seat of this match is taken."),
    "not_seated": _error("No seat", 403, "not_seated", "You do not hold a seat in this match."),
    "invalid_ply": _error(
        "Bad ply", 400, "invalid_ply", "ply must be a whole number from 0 to 12.",
        {"ply": "x", "max": 12},
    ),
    "not_finished": _error(
        "No result yet", 409, "not_finished", "The match has no result yet.",
        {"status": "active"},
    ),
    "rules_version_unavailable": _error(
        "Rules version not kept", 409, "rules_version_unavailable",
        "This service no longer keeps the rules version this match was played under, so "
        "it cannot replay it.",
        {"game": "hansa", "rules_version": "1", "runnable": ["2"]},
    ),
    "stale_ply": _error(
        "Stale ply", 409, "stale_ply", "The match has moved on since the ply you expected.",
        {"expected_ply": 7, "current_ply": 8},
    ),
    "not_your_turn": _error(
        "Not your turn", 409, "not_your_turn", "Your seat does not owe a decision now.",
        {"seat": 1, "ply": 8},
    ),
    "malformed_move": _error(
        "Malformed move", 400, "malformed_move", "A move must be a JSON object.",
        {"received": "list"},
    ),
    "illegal_move": _error(
        "Illegal move (the engine's own code)", 400, "illegal_move",
        "That move is not allowed now.",
    ),
    "invalid_options": _error(
        "Bad options", 400, "invalid_options", "Unknown option 'colour'.",
        {"reason": "unknown_option"},
    ),
    "invalid_player_count": _error(
        "Bad player count", 400, "invalid_player_count", "Han is for 2 to 4 players, not 7.",
        {"players": 7, "min": 2, "max": 4},
    ),
}

GAME_EXAMPLE = OpenApiExample(
    "Han",
    value={
        "game": "han",
        "title": "Han",
        "players": {"min": 2, "max": 4},
        "options": {
            "type": "object",
            "properties": {
                "map": {"enum": ["border-disputes", "ways-of-diplomacy"]},
                "variant": {"type": "boolean"},
            },
        },
        "rules_version": "1",
        "bot_kinds": ["random", "greedy", "easy", "medium", "hard_v1", "hard"],
        "bot_levels": [
            {"kind": "greedy", "description": "Plays the move worth the most points at once, "
             "judged from its own view.", "search": None, "strength": {}},
            {"kind": "hard", "description": "Information-set Monte Carlo tree search, 300 "
             "sampled playouts per move in a two-player game, as many again per "
             "further player, dealing only hands the game's history allows.",
             "search": {"iterations": 300, "seconds": 6.0},
             "strength": {"against": [{"opponent": "greedy", "players": 2, "games": 100,
                                       "win_rate": 0.9, "win_ci": [0.83, 0.94],
                                       "margin": 12.0}],
                          "think_time_s": {"median": 0.4, "p99": 1.2}}},
        ],
    },
    response_only=True,
)

GAME_LIST_EXAMPLE = OpenApiExample(
    "The catalogue's first page (limit=1)",
    value={"count": 2, "next": "http://127.0.0.1:8000/api/v1/games/?limit=1&offset=1",
           "previous": None, "results": [GAME_EXAMPLE.value]},
    response_only=True,
)

_SEATS = [
    {"position": 0, "kind": "human", "user": "ann", "bot_kind": None, "taken_over_from": None},
    {"position": 1, "kind": "bot", "user": None, "bot_kind": "greedy", "taken_over_from": None},
]

MATCH_DETAIL_EXAMPLE = OpenApiExample(
    "Active match, seen from seat 0",
    value={
        "id": 42,
        "game": "hansa",
        "options": {},
        "players": 2,
        "status": "active",
        "ply": 8,
        "seats": _SEATS,
        "your_seat": 0,
        "seed_commitment": _COMMITMENT,
        "seed": None,
        "rules_version": "1",
        "created_by": "ann",
        "created_at": "2026-11-29T14:00:00Z",
        "started_at": "2026-11-29T14:00:05Z",
        "finished_at": None,
        "abort_reason": "",
        "to_act": [0],
        "view": {"...": "engine.view(state, 0): your hand, public board; no hidden cards"},
    },
    response_only=True,
)

CREATE_MATCH_EXAMPLES = [
    OpenApiExample(
        "Han, 4 players, two greedy bots",
        value={
            "game": "han",
            "players": 4,
            "options": {"map": "border-disputes", "variant": False},
            "bot_seats": {"2": "greedy", "3": "random"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "Hansa against one bot (starts at once: every seat is taken)",
        value={"game": "hansa", "players": 2, "bot_seats": {"1": "greedy"}},
        request_only=True,
    ),
    ERROR_EXAMPLES["invalid_options"],
    ERROR_EXAMPLES["invalid_player_count"],
    _error("Unknown game in the body", 400, "unknown_game", "No game called 'chess'."),
]

SUBMIT_MOVE_EXAMPLES = [
    OpenApiExample(
        "A move with the ply you saw",
        value={"move": {"type": "...", "...": "one of GET legal-moves"}, "expected_ply": 8},
        request_only=True,
    ),
    OpenApiExample(
        "Move accepted",
        value={
            "ply": 8,
            "seat": 0,
            "move": {"type": "..."},
            "events": [],
            "match": {"id": 42, "status": "active", "ply": 9, "to_act": [1], "...": "..."},
        },
        response_only=True,
        status_codes=["201"],
    ),
    ERROR_EXAMPLES["malformed_move"],
    ERROR_EXAMPLES["illegal_move"],
    ERROR_EXAMPLES["stale_ply"],
    ERROR_EXAMPLES["not_your_turn"],
]

LEGAL_MOVES_EXAMPLE = OpenApiExample(
    "Seat 0 to act",
    value={"seat": 0, "ply": 8, "to_act": [0], "moves": [{"type": "..."}, {"type": "..."}]},
    response_only=True,
)

MOVE_LOG_EXAMPLE = OpenApiExample(
    "The log's first page (limit=2), redacted while the match runs",
    value={
        "count": 9,
        "next": "http://127.0.0.1:8000/api/v1/matches/42/moves/?limit=2&offset=2",
        "previous": None,
        "results": [
            {"ply": 0, "seat": 0, "move": {"type": "keep", "cards": ["lon-01", "bru-02"]},
             "events": [{"type": "choice_made", "seat": 0, "choice": "keep"}],
             "created_at": "2026-11-29T14:00:09Z"},
            {"ply": 1, "seat": 1, "move": {"type": "keep"},
             "events": [{"type": "choice_made", "seat": 1, "choice": "keep"}],
             "created_at": "2026-11-29T14:00:10Z"},
        ],
    },
    response_only=True,
)

REPLAY_EXAMPLE = OpenApiExample(
    "State after ply 3 from seat 0",
    value={"ply": 3, "seat": 0, "view": {"...": "engine.view(state after 3 moves, 0)"}},
    response_only=True,
)

RESULT_EXAMPLE = OpenApiExample(
    "Finished",
    value={
        "match_id": 42,
        "status": "finished",
        "seed": "3c1e0f5d8a2b4c6d7e8f9a0b1c2d3e4f",
        "results": [
            {"seat": 0, "score": 74, "rank": 1, "breakdown": {"...": "per category"}},
            {"seat": 1, "score": 61, "rank": 2, "breakdown": {"...": "per category"}},
        ],
        "winners": [0],
    },
    response_only=True,
)

EVENTS_EXAMPLE = OpenApiExample(
    "Polling from ply 7",
    value={
        "since": 7,
        "ply": 9,
        "status": "active",
        "to_act": [0],
        "moves": [
            {"ply": 7, "seat": 0, "move": {"type": "..."}, "created_at": "2026-11-29T14:01:00Z"},
            {"ply": 8, "seat": 1, "move": {"type": "..."}, "created_at": "2026-11-29T14:01:02Z"},
        ],
        "view": {"...": "your current view"},
    },
    response_only=True,
)


RECORD_SIGNING_KEYS_EXAMPLE = OpenApiExample(
    "The current key and one older key still published",
    value={"keys": [
        {"key_id": "3b8e0c1f5a2d9e47", "algorithm": "Ed25519",
         "public_key": "Xs2n0Qm9cH3V8YyJb1q4W6o7E5rT2uK0pLzAaBcDeFg=", "current": True},
        {"key_id": "a41f07d2c6e95b80", "algorithm": "Ed25519",
         "public_key": "q0Lr8TzN3vYw1XcB5mK7hJ2gF4dS6aP9oI3uE0yRtWk=", "current": False},
    ]},
    response_only=True,
)
