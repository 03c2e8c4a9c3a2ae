"""Every labelled counter exists at zero from the start (issue 40): a series that first
appears at its final value is invisible to ``rate``/``increase``, and seven real 5xx
never showed on the 5xx panel. Against the real web tier, worker and exporter
(tests/infra/observability_stack.py), scraped before any request is served: the 5xx
count is there at 0, then counts the first crash; the move counters of every game and
mover, and the rate limits' refusals of every scope, are there at 0."""

from __future__ import annotations

import pytest
from rest_framework.settings import api_settings

from rules.registry import available_games
from tests.infra.observability_stack import running_stack

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow,
              pytest.mark.celery_worker]


def _samples(scrape: dict, name: str) -> dict[tuple, float]:
    return {tuple(sorted(sample.labels.items())): sample.value
            for family in scrape.values() for sample in family if sample.name == name}


def test_counters_are_at_zero_before_their_first_count(tmp_path):
    with running_stack(tmp_path, DJANGO_SETTINGS_MODULE="tests.infra.crash_settings") as stack:
        before = stack.scrape()
        answers = _samples(before, "http_responses_total")
        assert answers[(("status_class", "5xx"),)] == 0, answers
        moves = _samples(before, "game_moves_committed_total")
        for game in available_games():
            for mover in ("player", "bot"):
                assert moves[(("game", game), ("mover", mover))] == 0, moves
        refusals = _samples(before, "throttle_refusals_total")
        for scope in api_settings.DEFAULT_THROTTLE_RATES:
            assert refusals[(("scope", scope),)] == 0, refusals

        assert stack.request("GET", "/api/v1/test-crash/")[0] == 500
        after = _samples(stack.scrape(), "http_responses_total")
        assert after[(("status_class", "5xx"),)] == 1, after
