"""Helpers of the GraphQL tests: posting operations to /graphql/, setting up matches
through the services (the same path REST takes), and advancing them move by move."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.test import Client
from rest_framework.authtoken.models import Token

from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Match, Move

GRAPHQL = "/graphql/"


@dataclass
class Player:
    user: Any
    token: str


def make_player(make_user) -> Player:
    user = make_user()
    return Player(user=user, token=Token.objects.get_or_create(user=user)[0].key)


def gql(query: str, variables: dict | None = None, *, token: str | None = None) -> dict:
    """POST an operation; return the parsed body (``data`` and maybe ``errors``)."""
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    response = Client().post(
        GRAPHQL,
        data=json.dumps({"query": query, "variables": variables or {}}),
        content_type="application/json",
        **headers,
    )
    assert response.status_code == 200, response.content[:500]
    return response.json()


def error_codes(body: dict) -> list[str]:
    return [error.get("extensions", {}).get("code") for error in body.get("errors", [])]


def payload_codes(payload: dict) -> list[str]:
    return [error["code"] for error in payload["errors"]]


def start_match(game: str, players: list[Player], options: dict | None = None) -> int:
    """An active match with every seat a human, seat i = players[i]."""
    match = match_services.create_match(
        user=players[0].user, game=game, players=len(players), options=options
    )
    for player in players[1:]:
        match_services.join_match(user=player.user, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == "active"
    return match.pk


def advance(match_id: int, players: list[Player], plies: int, *, prefer: tuple = ()) -> None:
    """Play ``plies`` moves through the move service: whoever is to act plays a legal move,
    one whose type is in ``prefer`` when there is one."""
    for _ in range(plies):
        match = selectors.get_match(match_id)
        to_act = selectors.to_act_of(match)
        assert to_act, "the match is over or stuck"
        seat = to_act[0]
        moves = selectors.legal_moves_for(match, players[seat].user)["moves"]
        preferred = [move for move in moves if move.get("type") in prefer]
        services.submit_move(
            match_id=match_id, user=players[seat].user, move=(preferred or moves)[0],
            expected_ply=match.ply,
        )


def snapshot(match_id: int) -> tuple:
    """What a failed write must leave untouched."""
    match = Match.objects.get(pk=match_id)
    return (
        match.status, match.ply, json.dumps(match.state, sort_keys=True),
        Move.objects.filter(match_id=match_id).count(),
        tuple(match.seats.order_by("position").values_list("position", "user_id", "bot_kind")),
    )
