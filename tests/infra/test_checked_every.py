"""infra/checked_every.py: a cached answer is asked again only once its period is over;
``known`` never asks; ``set`` is an answer as fresh as one asked."""

from __future__ import annotations

from infra.checked_every import CheckedEvery


def _counting():
    asked = []

    def ask() -> int:
        asked.append(1)
        return len(asked)

    return asked, ask


def test_asked_once_per_period(settings):
    settings.WEBHOOK_ENDPOINTS_CHECK_SECONDS = 3600
    asked, ask = _counting()
    answer = CheckedEvery("WEBHOOK_ENDPOINTS_CHECK_SECONDS", ask, 0)
    assert answer.known() == 0 and answer.stale()
    assert [answer(), answer(), answer()] == [1, 1, 1] and len(asked) == 1
    settings.WEBHOOK_ENDPOINTS_CHECK_SECONDS = 0  # the period is over: asked again
    assert answer() == 2 and answer() == 3


def test_known_never_asks_and_set_is_fresh(settings):
    settings.WEBHOOK_ENDPOINTS_CHECK_SECONDS = 3600
    asked, ask = _counting()
    answer = CheckedEvery("WEBHOOK_ENDPOINTS_CHECK_SECONDS", ask, 0)
    assert answer.known() == 0 and asked == []
    answer.set(7)
    assert not answer.stale() and answer() == 7 and asked == []
    assert answer.refresh() == 1 and answer.known() == 1
    answer.forget()
    assert answer.known() == 0 and answer.stale()
