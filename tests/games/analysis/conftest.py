"""Every analysis test runs with a tiny budget (tests/games/analysis/support.py: TINY)."""

import pytest

from tests.games.analysis.support import TINY


@pytest.fixture(autouse=True)
def tiny_budget(settings):
    for name, value in TINY.items():
        setattr(settings, name, value)
    return settings
