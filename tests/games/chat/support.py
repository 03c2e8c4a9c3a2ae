"""Matches and paths the chat's tests share."""

from __future__ import annotations

from games.matches import services as match_services
from games.matches.models import Match
from tests.games.support import API


def two_player_han(first, second) -> Match:
    """A running two-player match of Han: ``first`` in seat 0, ``second`` in seat 1."""
    match = match_services.create_match(user=first, game="han", players=2, creator_seat=0)
    match_services.join_match(user=second, match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def chat_url(match_id, room: str, message_id=None) -> str:
    tail = f"{message_id}/" if message_id is not None else ""
    return f"{API}/matches/{match_id}/chat/{room}/{tail}"
