"""The log a reader gets agrees with the match row it was read with: a move committed after
that row was read is left for the next poll, so polling with ``since=ply`` never returns a
move twice (found by the GraphQL subscription tests)."""

import pytest

from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Match
from rules import get_engine


@pytest.mark.django_db
def test_events_read_from_a_stale_row_stop_at_that_rows_ply(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = match_services.create_match(user=alice, game="hansa", players=2, seed="log-consistency")
    match_services.join_match(user=bob, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == "active"

    stale_row = Match.objects.get(pk=match.pk)
    engine = get_engine("hansa")
    seat = engine.to_act(engine.from_json(stale_row.state))[0]
    mover = alice if selectors.seat_of(stale_row, alice) == seat else bob
    move = engine.legal_moves(engine.from_json(stale_row.state), seat)[0]
    services.submit_move(match_id=match.pk, move=move, user=mover)

    stale_events = selectors.match_events(stale_row, None, since=0)
    assert stale_events["ply"] == 0
    assert stale_events["moves"] == []

    fresh_events = selectors.match_events(Match.objects.get(pk=match.pk), None, since=0)
    assert fresh_events["ply"] == 1
    assert [entry["ply"] for entry in fresh_events["moves"]] == [0]
