"""What both load-test players (bench/locustfile.py over REST, bench/socket_players.py over
the play socket) do to start a match: a two-player match with a greedy bot in seat 1."""

from __future__ import annotations

import gevent


def describe(response) -> str:
    """A failure's message: the status and the start of the body, or the connection error
    (status 0, no body)."""
    text = response.text or repr(getattr(response, "error", None))
    return f"{response.status_code} {text[:200]}"


def create_bot_match(client, headers: dict, game: str, *, pause_s: float) -> dict | None:
    """The new match's detail, or None after recording the failure and pausing."""
    with client.post("/api/v1/matches/", name="create match", headers=headers,
                     json={"game": game, "players": 2, "bot_seats": {"1": "greedy"}},
                     catch_response=True) as response:
        if response.status_code != 201:
            response.failure(describe(response))
            gevent.sleep(pause_s)
            return None
        return response.json()
