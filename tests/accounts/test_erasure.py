"""Erasing an account, the account's side (issue 25, accounts/erasure.py): the tombstone,
what goes with the old identity, the reserved names, administrators, the admin's delete
pages, and the database function the runtime role erases through."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts import erasure, revocation
from accounts.models import User
from games.feed.models import FeedEvent
from games.matches.models import Seat
from tests.conftest import DEFAULT_PASSWORD
from tests.infra.test_database_roles import _refused, as_runtime_role, runtime_sql  # noqa: F401

pytestmark = pytest.mark.django_db

TOMBSTONE = re.compile(r"deleted-[0-9a-f]{12}\Z")


@pytest.fixture
def announced(monkeypatch):
    users: list[int] = []
    monkeypatch.setattr(revocation, "_announce", users.append)
    return users


def test_erasing_leaves_a_tombstone_and_nothing_of_the_person(
        make_user, announced, django_capture_on_commit_callbacks):
    person = make_user("erin", email="erin@example.org", first_name="Erin", last_name="Q")
    Token.objects.create(user=person)
    person.groups.add(Group.objects.create(name="referees"))
    with django_capture_on_commit_callbacks(execute=True):
        name = erasure.erase_account(person)
    row = User.objects.get(pk=person.pk)
    assert TOMBSTONE.match(name) and row.username == name
    assert (row.email, row.first_name, row.last_name, row.last_login) == ("", "", "", None)
    assert not row.is_active and not row.has_usable_password()
    assert not row.check_password(DEFAULT_PASSWORD)
    assert not Token.objects.filter(user=row).exists()
    assert not row.groups.exists()
    assert not User.objects.filter(username__iexact="erin").exists()
    assert announced and set(announced) == {person.pk}


def test_each_tombstone_is_its_own_and_stays(make_user):
    first, second = make_user(), make_user()
    names = [erasure.erase_account(first), erasure.erase_account(second)]
    assert names[0] != names[1]
    assert erasure.erase_account(User.objects.get(pk=first.pk)) == names[0]  # once only
    assert User.objects.get(pk=first.pk).username == names[0]


@pytest.mark.parametrize("name", ["deleted-0123456789ab", "Deleted-me", "DELETED-x1"])
def test_nobody_can_sign_up_with_a_tombstone_s_name(api_client, name):
    response = api_client.post("/api/v1/auth/register/",
                               {"username": name, "password": "a-long-enough-pass-9"},
                               format="json")
    assert response.status_code == 400, response.content
    assert "deleted-" in response.content.decode()
    assert not User.objects.filter(username__iexact=name).exists()


def test_a_tombstone_cannot_sign_in_even_with_its_old_password(make_user, api_client):
    person = make_user("gone")
    name = erasure.erase_account(person)
    for username in ("gone", name):
        response = api_client.post("/api/v1/auth/token/",
                                   {"username": username, "password": DEFAULT_PASSWORD},
                                   format="json")
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "invalid_credentials"


@pytest.mark.parametrize("power", [{"is_staff": True}, {"is_superuser": True}])
def test_an_administrator_is_not_erased(make_user, power):
    boss = make_user("boss", **power)
    with pytest.raises(erasure.AdministratorNotErasable):
        erasure.erase_account(boss)
    assert User.objects.get(pk=boss.pk).username == "boss"


def test_a_failing_receiver_undoes_the_whole_erasure(make_user):
    person = make_user("stays")
    Token.objects.create(user=person)

    def refuse(**kwargs):
        raise RuntimeError("the games could not let go")

    erasure.account_erased.connect(refuse, dispatch_uid="test-refuse")
    try:
        with pytest.raises(RuntimeError):
            erasure.erase_account(person)
    finally:
        erasure.account_erased.disconnect(dispatch_uid="test-refuse")
    row = User.objects.get(pk=person.pk)
    assert row.username == "stays" and row.is_active and Token.objects.filter(user=row).exists()


# -- the admin: deleting is erasing -------------------------------------------------------------
def _admin(make_user) -> Client:
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def test_the_admin_s_delete_page_erases_instead_of_cascading(make_user):
    person = make_user("admin_target")
    client = _admin(make_user)
    page = client.get(f"/admin/accounts/user/{person.pk}/delete/")
    assert page.status_code == 200 and b"erased" in page.content
    response = client.post(f"/admin/accounts/user/{person.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    row = User.objects.get(pk=person.pk)  # still there, as a tombstone
    assert TOMBSTONE.match(row.username) and not row.is_active
    # the admin's log names the tombstone, never the old name
    assert not LogEntry.objects.filter(object_repr__icontains="admin_target").exists()
    assert LogEntry.objects.filter(object_id=str(person.pk), object_repr=row.username).exists()


def test_the_admin_s_delete_selected_erases_each(make_user):
    people = [make_user(), make_user()]
    response = _admin(make_user).post("/admin/accounts/user/", {
        "action": "delete_selected", "post": "yes",
        "_selected_action": [str(person.pk) for person in people]})
    assert response.status_code == 302
    assert all(TOMBSTONE.match(User.objects.get(pk=person.pk).username) for person in people)


def test_the_admin_cannot_erase_an_administrator(make_user):
    other_admin = make_user("other_admin", is_staff=True)
    client = _admin(make_user)
    assert client.get(f"/admin/accounts/user/{other_admin.pk}/delete/").status_code == 403
    assert User.objects.get(pk=other_admin.pk).username == "other_admin"


# -- the database: the runtime role erases through the owner's function alone -----------------
@pytest.mark.django_db(transaction=True)
def test_the_runtime_role_erases_only_through_the_function(runtime_sql, make_user):  # noqa: F811
    person = make_user("fn_target", email="fn@example.org")
    boss = make_user("fn_boss", is_superuser=True)
    _refused(runtime_sql, "UPDATE accounts_user SET username = 'deleted-0000000000aa' "
                          "WHERE id = %s", [person.pk])
    with pytest.raises(Exception, match="not a tombstone"):
        runtime_sql.execute("SELECT accounts_erase_user(%s, 'anything-else')", [person.pk])
    refused = runtime_sql.execute("SELECT accounts_erase_user(%s, 'deleted-00000000000b')",
                                  [boss.pk]).fetchone()[0]
    assert refused is False and User.objects.get(pk=boss.pk).is_superuser
    done = runtime_sql.execute("SELECT accounts_erase_user(%s, 'deleted-00000000000c')",
                               [person.pk]).fetchone()[0]
    assert done is True
    row = User.objects.get(pk=person.pk)
    assert (row.username, row.email, row.is_active) == ("deleted-00000000000c", "", False)


@pytest.mark.django_db(transaction=True)
def test_erasing_works_as_the_runtime_role(make_user, as_runtime_role, api_client):  # noqa: F811
    response = api_client.post("/api/v1/auth/register/",
                               {"username": "runtime_leaver", "password": "a-long-enough-pass-9"},
                               format="json")
    assert response.status_code == 201, response.content
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    # something for every step of the games' side: an open match of theirs, a running
    # one (its seat goes to a bot), feed events (deleted)
    for body in ({"game": "han", "players": 3},
                 {"game": "han", "players": 2, "bot_seats": {"1": "greedy"}}):
        assert api_client.post("/api/v1/matches/", body, format="json").status_code == 201
    assert FeedEvent.objects.filter(user__username="runtime_leaver").exists()
    response = api_client.delete("/api/v1/me", {"password": "a-long-enough-pass-9"},
                                 format="json")
    assert response.status_code == 204, response.content
    assert not User.objects.filter(username="runtime_leaver").exists()
    assert not Seat.objects.filter(user__username__startswith="deleted-",
                                   match__status__in=["open", "active"]).exists()
    assert not FeedEvent.objects.filter(user__username__startswith="deleted-").exists()
