"""Demo matches for development (called by ``manage.py seed_dev``), made through the
services like any other match."""

from __future__ import annotations

from games.matches import bot_moves, scoring, selectors
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from games.matches.played_rules import engine_of

#: far more bot turns than any game of either engine takes: a stuck game fails loudly
_MAX_DEMO_TURNS = 5000


def _play_bots_to_the_end(match_id: int) -> Match:
    """Play every bot turn inline (no Celery needed) and score the match. A running worker
    may play some of the turns too: a stale bot turn is a no-op, so the two never clash."""
    match = Match.objects.get(pk=match_id)
    engine = engine_of(match)
    for _turn in range(_MAX_DEMO_TURNS):
        if match.status != MatchStatus.ACTIVE:
            break
        to_act = engine.to_act(engine.from_json(match.state))
        if to_act:
            bot_moves.play_bot_turn(match_id=match.pk, seat=to_act[0], ply=match.ply)
        match = Match.objects.get(pk=match_id)
    else:
        raise RuntimeError(f"demo match {match_id} did not end in {_MAX_DEMO_TURNS} bot turns")
    scoring.score_match(match_id=match_id)
    return Match.objects.get(pk=match_id)


def seed_demo_matches(players: list, write=print) -> list[Match]:
    """With at least two demo players: an open Han lobby (one greedy bot, seats to take),
    a running Hansa match between the first two players, and a finished Han match between
    bots to replay. Idempotent: does nothing if the first player already created matches."""
    if len(players) < 2 or Match.objects.filter(created_by=players[0]).exists():
        write("demo matches already exist (or too few players): skipped")
        return []
    first, second = players[0], players[1]
    lobby = match_services.create_match(user=first, game="han", players=4, bot_seats={3: "greedy"})
    running = match_services.create_match(user=first, game="hansa", players=2)
    match_services.join_match(user=second, match_id=running.pk)
    finished = match_services.create_match(
        user=first, game="han", players=3, take_seat=False,
        bot_seats={0: "greedy", 1: "random", 2: "greedy"},
    )
    finished = _play_bots_to_the_end(finished.pk)
    for match in (lobby, running, finished):
        summary = selectors.match_summary(selectors.get_match(match.pk))
        write(f"demo match #{summary['id']}: {summary['game']} {summary['status']} "
              f"(ply {summary['ply']})")
    return [Match.objects.get(pk=match.pk) for match in (lobby, running, finished)]
