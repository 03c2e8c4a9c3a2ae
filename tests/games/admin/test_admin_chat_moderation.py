"""The chat moderation queue in the admin (docs/chat.md "Moderation"): the list puts open
reports first, a report's page shows the message in context with hidden and deleted ones
marked, the form's actions go through games.chat.moderation.actions (a refused one writes
nothing), the log and the sanctions are read-only, and only staff get in."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.chat import services
from games.chat.models import ChatMessage
from games.chat.moderation.models import ChatSanction, ModerationAction, ReportStatus
from tests.games.chat.moderation_support import reported_message

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(make_user):
    match, author, reader, report, moderator = reported_message(make_user, "the reported one")
    services.send_message(match.pk, "players", reader, "a reply")
    gone = services.send_message(match.pk, "players", reader, "a deleted one")
    services.delete_own_message(match.pk, "players", gone["id"], reader)
    client = Client()
    client.force_login(moderator)
    return match, author, reader, report, moderator, client


def _page(report) -> str:
    return reverse("admin:games_chatreport_change", args=[report.pk])


def test_the_report_page_shows_the_message_in_context(scene):
    match, author, _reader, report, _moderator, client = scene
    page = client.get(_page(report))
    assert page.status_code == 200
    html = page.content.decode()
    for text in ("the reported one", "a reply", "a deleted one", author.username):
        assert text in html, text
    assert "[deleted by its author]" in html and 'class="reported"' in html
    assert reverse("admin:games_match_change", args=[match.pk]) in html


def test_the_form_times_out_then_clears_and_the_log_has_both(scene):
    match, author, _reader, report, moderator, client = scene
    answer = client.post(_page(report), {"action": "time_out", "length": "10m",
                                         "reason": "insults"})
    assert answer.status_code == 302
    sanction = ChatSanction.objects.get(user=author)
    assert sanction.kind == "time_out" and sanction.cleared_at is None
    html = client.get(_page(report)).content.decode()
    assert "insults" in html and "time-out" in html
    client.post(_page(report), {"action": "clear", "length": "24h", "reason": "appeal"})
    sanction.refresh_from_db()
    assert sanction.cleared_at is not None
    assert list(ModerationAction.objects.order_by("id").values_list("kind", "moderator")) \
        == [("time_out", moderator.pk), ("clear", moderator.pk)]
    log = client.get(reverse("admin:games_moderationaction_changelist"))
    assert log.status_code == 200 and "appeal" in log.content.decode()


def test_hiding_from_the_form_marks_the_message_hidden_in_the_context(scene):
    _match, _author, _reader, report, _moderator, client = scene
    client.post(_page(report), {"action": "hide", "length": "24h", "reason": "rude"})
    assert ChatMessage.objects.get(pk=report.message_id).hidden_by_moderator
    assert "[hidden]" in client.get(_page(report)).content.decode()
    report.refresh_from_db()
    assert report.status == ReportStatus.ACTIONED


@pytest.mark.parametrize("form", [
    {"action": "ban", "length": "24h", "reason": ""},
    {"action": "explode", "length": "24h", "reason": "why not"},
    {"action": "time_out", "length": "3y", "reason": "long"},
    {"action": "clear", "length": "24h", "reason": "nothing to clear"},
])
def test_a_refused_action_writes_nothing(scene, form):
    _match, _author, _reader, report, _moderator, client = scene
    answer = client.post(_page(report), form)
    assert answer.status_code == 200  # the page again, saying why
    assert not ModerationAction.objects.exists() and not ChatSanction.objects.exists()
    report.refresh_from_db()
    assert report.status == ReportStatus.OPEN


def test_the_queue_lists_open_reports_first(scene, make_user):
    _match, _author, _reader, report, moderator, client = scene
    _m, _a, _r, later, _ = reported_message(make_user, "later")
    from games.chat.moderation import actions

    actions.dismiss(report, moderator, "fine")
    html = client.get(reverse("admin:games_chatreport_changelist")).content.decode()
    assert html.index(_page(later)) < html.index(_page(report))
    found = client.get(reverse("admin:games_chatreport_changelist"),
                       {"q": later.message.author.username, "status": "open"})
    assert _page(later) in found.content.decode()
    assert _page(report) not in found.content.decode()


def test_the_log_and_sanctions_are_read_only(scene):
    _match, _author, _reader, report, _moderator, client = scene
    client.post(_page(report), {"action": "ban", "length": "24h", "reason": "spam"})
    entry = ModerationAction.objects.get()
    change = reverse("admin:games_moderationaction_change", args=[entry.pk])
    assert client.post(change, {"reason": "rewritten"}).status_code == 403
    assert client.get(reverse("admin:games_moderationaction_add")).status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "spam"


@pytest.mark.parametrize("object_id", ["0", "abc", "9" * 30])
def test_a_report_that_is_not_there_is_404(scene, object_id):
    client = scene[-1]
    page = client.get(f"/admin/games/chatreport/{object_id}/change/")
    assert page.status_code == 404


def test_only_staff_see_the_queue(scene, make_user):
    report = scene[3]
    player = Client()
    player.force_login(make_user())
    answer = player.get(_page(report))
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
