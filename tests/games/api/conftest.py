"""Fixtures the REST robustness tests share (test_robustness.py, test_huge_numbers.py); a
module that defines a fixture of the same name uses its own."""

from __future__ import annotations

import pytest

from games.matches import services as match_services


@pytest.fixture
def ann(make_user, make_auth_client):
    user = make_user()
    return user, make_auth_client(user)


@pytest.fixture
def han_duel(ann, make_user):
    """An active two-player Han match: ann (seat 0, who opens) against another player."""
    match = match_services.create_match(user=ann[0], game="han", players=2)
    match_services.join_match(user=make_user(), match_id=match.pk)
    match.refresh_from_db()
    assert match.status == "active"
    return match
