"""The database bench/graphql_field_costs.py measures on: a player with a realistic past.

``bench-cost-hero`` has played ``matches`` finished matches (Han with 2-5 seats and Hansa
with 2-4, alternately) against random bots, so their profile aggregates that many seats,
their rating history has as many changes and their feed as many events; they sit in
``active`` running matches where they are to act, and have an invitation and a quick-match
request waiting. Made through the services, as play would make them (bot turns and
scoring inline); kept between runs (``--keep``) because playing 50 games takes minutes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from config.celery import app as celery_app
from games.lobby import services as lobby_services
from games.lobby.models import Invitation
from games.matches import selectors, services
from games.matches.models import Match, MatchStatus
from games.quickmatch import services as quickmatch_services
from games.quickmatch.models import QuickMatchRequest

PREFIX = "bench-cost-"
HERO = f"{PREFIX}hero"
PASSWORD = "bench-cost-password"
#: 2-5 Han seats and 2-4 Hansa seats, in turn
SHAPES = [("han", 2), ("hansa", 2), ("han", 3), ("hansa", 3), ("han", 4), ("hansa", 4),
          ("han", 5)]


@dataclass
class CostData:
    hero: object
    token: str
    #: another signed-in player (invitations, joins)
    friend: object
    friend_token: str
    finished: list[int]
    #: the finished match with the most moves: replays, records, logs
    longest: int
    #: running four-player matches where the hero is to act, Han and Hansa in turn
    active: list[int]


def _user(name: str):
    user, made = get_user_model().objects.get_or_create(username=name)
    if made:
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    return user, Token.objects.get_or_create(user=user)[0].key


def _play_hero(match_id: int, hero, rng: random.Random, plies: int | None = None) -> None:
    """Play the hero's turns with random legal moves (the bots answer inline) until the
    match ends, or for ``plies`` of the hero's moves, stopping where the hero is to act."""
    played = 0
    while plies is None or played < plies:
        match = selectors.get_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            return
        moves = selectors.legal_moves_for(match, hero)["moves"]
        if not moves:
            raise RuntimeError(f"match {match_id} waits for someone else")
        services.submit_move(match_id=match_id, user=hero, move=rng.choice(moves),
                             expected_ply=match.ply)
        played += 1


def _new_match(hero, game: str, players: int, seed: str) -> int:
    match = services.create_match(
        user=hero, game=game, players=players, creator_seat=0, seed=seed,
        bot_seats={seat: "random" for seat in range(1, players)})
    return match.pk


def build(matches: int, active: int = 10) -> CostData:
    """The hero's past, made once (finds what an earlier run kept)."""
    celery_app.conf.task_always_eager = True  # bot turns and scoring inline while building
    try:
        hero, token = _user(HERO)
        friend, friend_token = _user(f"{PREFIX}friend")
        rng = random.Random(1)
        mine = Match.objects.filter(seats__user=hero).order_by("pk")
        finished = list(mine.filter(status=MatchStatus.FINISHED).values_list("pk", flat=True))
        for index in range(len(finished), matches):
            game, players = SHAPES[index % len(SHAPES)]
            match_id = _new_match(hero, game, players, f"{PREFIX}{index}")
            _play_hero(match_id, hero, rng)
            finished.append(match_id)
        running = list(mine.filter(status=MatchStatus.ACTIVE).values_list("pk", flat=True))
        for index in range(len(running), active):
            game = "han" if index % 2 == 0 else "hansa"  # Han first: legal moves, views
            match_id = _new_match(hero, game, 4, f"{PREFIX}active-{index}")
            _play_hero(match_id, hero, rng, plies=8)
            running.append(match_id)
        if not Invitation.objects.filter(invitee=hero).exists():
            lobby_services.create_private_match(user=friend, game="hansa", players=3,
                                                invite=[HERO])
        if not QuickMatchRequest.objects.filter(user=hero).exists():
            quickmatch_services.request_quick_match(user=hero, game="han", players=5)
    finally:
        celery_app.conf.task_always_eager = False
    longest = max(finished, key=lambda pk: Match.objects.get(pk=pk).ply)
    _analysed(longest, hero)
    return CostData(hero=hero, token=token, friend=friend, friend_token=friend_token,
                    finished=finished, longest=longest, active=running)


def _analysed(match_id: int, hero) -> None:
    """A done analysis of the longest match under today's budget: a row per decision (the
    figures do not change what reading them costs, so they are the move played, 0 lost)."""
    from games.analysis.budget import current_budget
    from games.analysis.models import AnalysedDecision, Analysis
    from rules.analysis import JUDGE_VERSION

    match = Match.objects.get(pk=match_id)
    budget = current_budget()
    analysis, created = Analysis.objects.get_or_create(
        match=match, rules_version=match.rules_version,
        iterations=budget.iterations, samples=budget.samples,
        # served only when today's judge made it (games/analysis/selectors.py)
        defaults={"judge_version": JUDGE_VERSION, "status": "done",
                  "decisions_total": match.ply,
                  "decisions_done": match.ply, "requested_by": hero,
                  "seats": [{"seat": seat, "accuracy": 90.0} for seat in range(match.players)]})
    if analysis.judge_version != JUDGE_VERSION:  # kept by a run before the judge changed
        analysis.judge_version = JUDGE_VERSION
        analysis.save(update_fields=["judge_version"])
    if created:
        AnalysedDecision.objects.bulk_create(
            AnalysedDecision(analysis=analysis, ply=row.ply, seat=row.seat, played=row.move,
                             best=row.move, value_played=0.0, value_best=0.0, loss=0.0,
                             choices=2, cpu_ms=0.0)
            for row in match.moves.order_by("ply"))


def delete() -> None:
    """Everything the bench made: the users' matches, then the users."""
    users = get_user_model().objects.filter(username__startswith=PREFIX)
    Match.objects.filter(seats__user__in=users).delete()
    Match.objects.filter(created_by__in=users).delete()
    users.delete()
