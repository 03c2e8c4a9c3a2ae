"""Helpers of the analysis tests: finished matches with a person seated, and a tiny
budget so that a whole match is analysed in about a second."""

from __future__ import annotations

from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from tests.games.support import eager_celery, match_url, play_to_end

#: a budget small enough for tests (the figures still come from the real search)
TINY = {"ANALYSIS_ITERATIONS": 3, "ANALYSIS_SAMPLES": 2}


def finished_match(player, game: str = "han", bot: str = "random", seed: str | None = None
                   ) -> Match:
    """A two-player match of ``player`` (seat 0) against a bot, played to the end (the
    person plays its first legal move each time)."""
    with eager_celery():
        match = match_services.create_match(user=player, game=game, players=2,
                                            bot_seats={1: bot}, creator_seat=0, seed=seed)
    match = play_to_end(match.pk, {0: player})
    assert match.status == MatchStatus.FINISHED
    return match


def analysis_url(match_id) -> str:
    return match_url(match_id, "analysis/")
