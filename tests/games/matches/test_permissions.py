"""API admin powers come from model permissions, not is_staff (issue 9, defect 5): a staff
account without permissions may not start or abort another user's match, hand a seat to
a bot or open the admin replay page; a member of the "match admin" group may."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games.clocks import services as clock_services
from games.matches import errors
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from games.matches.permissions import MATCH_ADMIN_GROUP
from tests.games.support import API, assert_api_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(make_user):
    return make_user()


@pytest.fixture
def staff(make_user):
    """The report's account: staff (may sign in to the admin), no permissions."""
    return make_user(is_staff=True)


@pytest.fixture
def match_admin(make_user):
    user = make_user(is_staff=True)
    user.groups.add(Group.objects.get(name=MATCH_ADMIN_GROUP))
    return user


def _open_match(owner) -> Match:
    return match_services.create_match(user=owner, game="han", players=3)


def test_the_migration_makes_the_match_admin_group():
    codenames = set(Group.objects.get(name=MATCH_ADMIN_GROUP)
                    .permissions.values_list("codename", flat=True))
    assert {"manage_match", "view_match"} <= codenames


def test_staff_without_permissions_is_no_api_admin(owner, staff, make_auth_client):
    client = make_auth_client(staff)
    match = _open_match(owner)
    start = client.post(f"{API}/matches/{match.pk}/start/", {"fill_with": "random"},
                        format="json")
    assert_api_error(start, 403, "forbidden")
    abort = client.post(f"{API}/matches/{match.pk}/abort/", {}, format="json")
    assert_api_error(abort, 403, "forbidden")
    with pytest.raises(errors.NotAllowed):
        clock_services.hand_seat_to_bot(user=staff, match_id=match.pk, position=1,
                                        bot_kind="random", for_good=True)
    match.refresh_from_db()
    assert match.status == MatchStatus.OPEN and match.seats.count() == 1


def test_staff_without_permissions_cannot_open_the_admin_replay(owner, staff):
    match = _open_match(owner)
    match_services.start_match(user=owner, match_id=match.pk, fill_with="random")
    browser = Client()
    browser.force_login(staff)
    assert browser.get(f"/admin/games/match/{match.pk}/replay/").status_code == 403


def test_a_match_admin_starts_aborts_and_hands_seats_to_bots(owner, match_admin,
                                                             make_auth_client):
    client = make_auth_client(match_admin)
    first, second = _open_match(owner), _open_match(owner)
    start = client.post(f"{API}/matches/{first.pk}/start/", {"fill_with": "random"},
                        format="json")
    assert start.status_code == 200, start.content
    assert Match.objects.get(pk=first.pk).status == MatchStatus.ACTIVE

    seat = clock_services.hand_seat_to_bot(user=match_admin, match_id=second.pk, position=2,
                                           bot_kind="greedy", for_good=True)
    assert seat.bot_kind == "greedy"
    abort = client.post(f"{API}/matches/{second.pk}/abort/", {"reason": "test"},
                        format="json")
    assert abort.status_code == 200, abort.content
    assert Match.objects.get(pk=second.pk).status == MatchStatus.ABORTED

    browser = Client()
    browser.force_login(match_admin)
    replay = browser.get(f"/admin/games/match/{first.pk}/replay/")
    assert replay.status_code == 200 and b"Replay of match" in replay.content


def test_a_superuser_needs_no_group(owner, make_user, make_auth_client):
    client = make_auth_client(make_user(is_superuser=True))
    match = _open_match(owner)
    abort = client.post(f"{API}/matches/{match.pk}/abort/", {}, format="json")
    assert abort.status_code == 200
