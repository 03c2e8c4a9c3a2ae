"""What moderators do (docs/chat.md "Moderation"), through games.chat.moderation.actions
as the admin calls it, and what a reader and a sanctioned author meet over REST: a
time-out refuses every send with ``chat_timed_out`` and its end, a ban with
``chat_banned``, until cleared; a hidden message is served without its text; each action
is in the log with who, when, why and what."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from prometheus_client import REGISTRY

from games.chat.models import ChatMessage
from games.chat.moderation import actions
from games.chat.moderation.models import (
    ActionKind,
    ChatReport,
    ChatSanction,
    ModerationAction,
    ReportStatus,
)
from games.chat.moderation.selectors import context_of, report_queue
from tests.games.chat.moderation_support import reported_message
from tests.games.chat.support import chat_url

pytestmark = pytest.mark.django_db


def _sample(name: str, labels: dict) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _send(client, match, text, room="players"):
    return client.post(chat_url(match.pk, room), {"text": text}, format="json")


def test_a_timed_out_author_is_refused_until_cleared(make_user, make_auth_client,
                                                     django_capture_on_commit_callbacks):
    match, author, _reader, report, moderator = reported_message(make_user)
    client = make_auth_client(author)
    refused_before = _sample("chat_messages_refused_total", {"reason": "chat_timed_out"})
    actions_before = _sample("chat_moderator_actions_total", {"kind": "time_out"})
    started = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):  # counted once committed
        actions.time_out(report, moderator, "1h", "insults")

    for room in ("players", "spectators"):  # every room: a time-out is out of chat
        answer = _send(client, match, "sorry", room)
        assert answer.status_code == 403, answer.content
        error = answer.json()["error"]
        assert error["code"] == "chat_timed_out"
        until = parse_datetime(error["details"]["until"])
        assert timedelta(minutes=59) < until - started <= timedelta(hours=1, seconds=5)
    assert not ChatMessage.objects.filter(text="sorry").exists()
    assert _sample("chat_messages_refused_total", {"reason": "chat_timed_out"}) == \
        refused_before + 2
    assert _sample("chat_moderator_actions_total", {"kind": "time_out"}) == actions_before + 1
    report.refresh_from_db()
    assert report.status == ReportStatus.ACTIONED

    actions.clear_sanctions(author.pk, moderator, "appeal: it was a joke", report=report)
    assert _send(client, match, "sorry").status_code == 201
    log = list(ModerationAction.objects.order_by("id").values_list(
        "kind", "moderator", "target", "report", "reason"))
    assert log == [(ActionKind.TIME_OUT, moderator.pk, author.pk, report.pk, "insults"),
                   (ActionKind.CLEAR, moderator.pk, author.pk, report.pk,
                    "appeal: it was a joke")]


def test_a_banned_author_is_refused_with_chat_banned_until_cleared(make_user,
                                                                    make_auth_client):
    match, author, _reader, report, moderator = reported_message(make_user)
    client = make_auth_client(author)
    actions.time_out(report, moderator, "10m", "first")
    actions.ban(report, moderator, "again and again")
    answer = _send(client, match, "let me in")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "chat_banned"
    cleared = actions.clear_sanctions(author.pk, moderator, "appeal upheld")
    assert {entry.sanction.kind for entry in cleared} == {"ban", "time_out"}
    assert _send(client, match, "thank you").status_code == 201
    with pytest.raises(actions.ModerationRefused):  # nothing left in force
        actions.clear_sanctions(author.pk, moderator, "twice")


def test_a_time_out_that_is_over_refuses_nothing(make_user, make_auth_client):
    match, author, _reader, _report, _moderator = reported_message(make_user)
    ChatSanction.objects.create(user=author, kind="time_out", reason="long ago",
                                until=timezone.now() - timedelta(seconds=1))
    assert _send(make_auth_client(author), match, "back").status_code == 201


def test_a_hidden_message_is_served_without_its_text_and_closes_its_reports(
        make_user, make_auth_client):
    match, author, reader, report, moderator = reported_message(
        make_user, "a very rude sentence")
    actions.hide_message(report, moderator, "insult")
    for who in (author, reader):
        page = make_auth_client(who).get(chat_url(match.pk, "players"))
        assert "a very rude sentence" not in page.content.decode()
        row = page.json()["results"][0]
        assert (row["hidden"], row["text"], row["author"]) == (True, "", author.username)
    report.refresh_from_db()
    assert report.status == ReportStatus.ACTIONED and report.resolved_at is not None
    entry = ModerationAction.objects.get()
    assert (entry.kind, entry.message_id, entry.target_id) == (
        "hide", report.message_id, author.pk)


def test_every_action_needs_a_reason_and_writes_nothing_without_one(make_user):
    _match, _author, _reader, report, moderator = reported_message(make_user)
    for act in (lambda: actions.hide_message(report, moderator, "  "),
                lambda: actions.ban(report, moderator, ""),
                lambda: actions.time_out(report, moderator, "1h", ""),
                lambda: actions.time_out(report, moderator, "3y", "too long"),
                lambda: actions.dismiss(report, moderator, "")):
        with pytest.raises(actions.ModerationRefused):
            act()
    assert not ModerationAction.objects.exists() and not ChatSanction.objects.exists()
    assert not ChatMessage.objects.filter(hidden_by_moderator=True).exists()


def test_a_dismissed_report_is_closed_and_not_dismissed_twice(make_user):
    _match, _author, _reader, report, moderator = reported_message(make_user)
    actions.dismiss(report, moderator, "banter between friends")
    report.refresh_from_db()
    assert report.status == ReportStatus.DISMISSED
    with pytest.raises(actions.ModerationRefused):
        actions.dismiss(report, moderator, "again")
    assert ModerationAction.objects.filter(kind="dismiss").count() == 1


def test_the_context_is_the_ten_messages_before_and_after(make_user):
    from games.chat import services

    match, author, reader, report, _moderator = reported_message(make_user, "m0")
    for number in range(1, 31):
        ChatMessage.objects.create(room_id=report.message.room_id,
                                   author=author if number % 2 else reader,
                                   text=f"m{number}", ply=0)
    middle = ChatMessage.objects.get(text="m15")
    assert [m.text for m in context_of(middle)] == [f"m{n}" for n in range(5, 26)]
    first = ChatMessage.objects.get(text="m0")
    assert [m.text for m in context_of(first)] == [f"m{n}" for n in range(0, 11)]
    last = ChatMessage.objects.get(text="m30")
    assert [m.text for m in context_of(last)] == [f"m{n}" for n in range(20, 31)]
    other_room = services.send_message(match.pk, "spectators", make_user(), "elsewhere")
    assert "elsewhere" not in [m.text for m in context_of(middle)]
    assert other_room["room"] == "spectators"


def test_the_queue_shows_open_reports_first_oldest_first(make_user):
    _match, _author, _reader, first, moderator = reported_message(make_user)
    _match, _author, _reader, second, _ = reported_message(make_user)
    _match, _author, _reader, third, _ = reported_message(make_user)
    actions.dismiss(first, moderator, "fine")
    assert [report.pk for report in report_queue()] == [second.pk, third.pk, first.pk]
    assert ChatReport.objects.count() == 3


def test_the_time_out_refusal_speaks_german(make_user, make_auth_client):
    match, author, _reader, report, moderator = reported_message(make_user)
    actions.time_out(report, moderator, "10m", "insults")
    answer = make_auth_client(author).post(chat_url(match.pk, "players"), {"text": "hallo"},
                                           format="json", HTTP_ACCEPT_LANGUAGE="de")
    error = answer.json()["error"]
    assert error["code"] == "chat_timed_out" and error["details"]["until"]
    assert error["message"].startswith("Ein Moderator hat Sie vorübergehend")
