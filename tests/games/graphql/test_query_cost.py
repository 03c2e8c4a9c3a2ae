"""Listing matches costs a constant number of SQL queries, however many matches (and seats)
are on the page: seats and their users are prefetched, not read one match at a time."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.matches import services as match_services
from tests.games.graphql.support import gql

pytestmark = pytest.mark.django_db

LIST = """
query List($limit: Int!) {
  matches(limit: $limit) {
    count
    results {
      id game status players ply seedCommitment seed createdBy yourSeat toAct view
      seats { position kind user botKind }
    }
  }
}
"""


def _make_matches(count: int, players) -> None:
    for index in range(count):
        creator, *others = players[index % 3:] + players[: index % 3]
        match = match_services.create_match(user=creator.user, game="hansa", players=3)
        match_services.join_match(user=others[0].user, match_id=match.pk)
        if index % 5 == 0:  # every fifth one full, hence started: it has a view too
            match_services.join_match(user=others[1].user, match_id=match.pk)


def _queries_to_list(limit: int, token: str) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as captured:
        body = gql(LIST, {"limit": limit}, token=token)
    assert "errors" not in body, body
    return len(captured.captured_queries), body["data"]["matches"]


def test_listing_50_matches_with_seats_costs_as_many_queries_as_listing_5(players):
    _make_matches(5, players)
    few_queries, few = _queries_to_list(50, players[0].token)
    assert len(few["results"]) == 5

    _make_matches(45, players)
    many_queries, many = _queries_to_list(50, players[0].token)
    assert len(many["results"]) == 50 and many["count"] == 50
    assert all(len(row["seats"]) == 3 for row in many["results"])
    assert sum(row["status"] == "ACTIVE" for row in many["results"]) == 10
    assert all(row["view"] is not None for row in many["results"] if row["status"] == "ACTIVE")

    assert many_queries == few_queries, (few_queries, many_queries)
    # 4 today: token lookup, count, matches (+ creator), seats (+ their users)
    assert many_queries <= 5, many_queries
