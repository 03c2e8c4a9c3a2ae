"""Reporting a chat message over REST (docs/chat.md "Moderation"): who may report, the
reason list, the note, reporting twice (the same report), and every refusal a stable code
that stores nothing."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY
from rest_framework.test import APIClient

from games.chat import services
from games.chat.moderation.models import ChatReport
from tests.games.chat.support import chat_url, two_player_han

pytestmark = pytest.mark.django_db


def _reports_counted(reason: str) -> float:
    return REGISTRY.get_sample_value("chat_reports_total", {"reason": reason}) or 0.0


@pytest.fixture
def table(make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = two_player_han(alice, bob)
    said = services.send_message(match.pk, "players", alice, "you play like a potato")
    watched = services.send_message(match.pk, "spectators", carol, "buy cheap coins here")
    clients = {"alice": make_auth_client(alice), "bob": make_auth_client(bob),
               "carol": make_auth_client(carol), "anonymous": APIClient()}
    return match, said, watched, clients


def _report(client, match, room, message_id, body):
    return client.post(chat_url(match.pk, room, message_id) + "report/", body, format="json")


def test_a_reader_reports_a_message_once_and_again_gets_the_same_report(
        table, django_capture_on_commit_callbacks):
    match, said, _watched, clients = table
    before = _reports_counted("abuse")
    with django_capture_on_commit_callbacks(execute=True):  # counted once committed
        first = _report(clients["bob"], match, "players", said["id"],
                        {"reason": "abuse", "note": "  rude,\nagain  "})
    assert first.status_code == 201, first.content
    row = first.json()
    assert (row["message"], row["reason"], row["note"], row["status"]) == (
        said["id"], "abuse", "rude,\nagain", "open")
    with django_capture_on_commit_callbacks(execute=True):
        again = _report(clients["bob"], match, "players", said["id"], {"reason": "spam"})
    assert again.status_code == 200 and again.json() == row  # unchanged: the one report
    assert ChatReport.objects.filter(message_id=said["id"]).count() == 1
    assert _reports_counted("abuse") == before + 1


def test_a_spectator_reports_in_the_spectators_room_and_the_note_is_optional(table):
    match, _said, watched, clients = table
    answer = _report(clients["alice"], match, "spectators", watched["id"], {"reason": "spam"})
    assert answer.status_code == 201 and answer.json()["note"] == ""


@pytest.mark.parametrize(("who", "room", "body", "status", "code"), [
    ("bob", "players", {"reason": "rude"}, 400, "chat_report_reason_invalid"),
    ("bob", "players", {"reason": ["abuse"]}, 400, "invalid_input"),
    ("bob", "players", {}, 400, "invalid_input"),
    ("bob", "players", {"reason": "other", "note": "x" * 501}, 400,
     "chat_report_note_too_long"),
    ("bob", "players", {"reason": "other", "note": "a\x00b"}, 400, "invalid_input"),
    ("alice", "players", {"reason": "abuse"}, 400, "chat_report_own_message"),
    ("carol", "players", {"reason": "abuse"}, 403, "chat_room_not_readable"),
    ("anonymous", "players", {"reason": "abuse"}, 401, "not_authenticated"),
    ("bob", "lounge", {"reason": "abuse"}, 404, "chat_room_not_found"),
    ("bob", "spectators", {"reason": "abuse"}, 404, "chat_message_not_found"),
])
def test_a_refused_report_says_why_and_stores_nothing(table, who, room, body, status, code):
    match, said, _watched, clients = table
    answer = _report(clients[who], match, room, said["id"], body)
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["code"] == code
    assert not ChatReport.objects.exists()


@pytest.mark.parametrize("message_id", ["0", "abc", "9" * 30, "99999999"])
def test_a_message_that_is_not_there_is_404(table, message_id):
    match, _said, _watched, clients = table
    answer = _report(clients["bob"], match, "players", message_id, {"reason": "abuse"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "chat_message_not_found"


def test_the_reason_list_is_in_the_refusal(table):
    match, said, _watched, clients = table
    answer = _report(clients["bob"], match, "players", said["id"], {"reason": "meh"})
    assert answer.json()["error"]["details"]["choices"] == [
        "spam", "abuse", "hate", "cheating", "personal_data", "other"]


def test_muting_an_author_first_does_not_stop_reporting_them(table):
    from games.chat import mutes

    match, said, _watched, clients = table
    bob = match.seats.get(position=1).user
    mutes.mute(bob, said["author"])
    listed = clients["bob"].get(chat_url(match.pk, "players")).json()
    assert listed["count"] == 0  # muted: not shown to bob
    answer = _report(clients["bob"], match, "players", said["id"], {"reason": "abuse"})
    assert answer.status_code == 201, answer.content
