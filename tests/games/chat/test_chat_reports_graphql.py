"""Reporting a chat message over GraphQL (``reportChatMessage``, docs/chat.md
"Moderation"): the REST endpoint's answer and refusals, in the payload."""

from __future__ import annotations

import pytest

from games.chat import services
from games.chat.moderation.models import ChatReport
from tests.games.chat.support import two_player_han
from tests.games.graphql.support import gql, make_player

pytestmark = pytest.mark.django_db

REPORT = """mutation($match: ID!, $room: String!, $message: ID!, $reason: String!,
                     $note: String) {
  reportChatMessage(matchId: $match, room: $room, messageId: $message, reason: $reason,
                    note: $note) {
    created
    report { id message reason note status createdAt }
    errors { code field }
  }
}"""


@pytest.fixture
def said(make_user):
    author, reader, outsider = (make_player(make_user) for _ in range(3))
    match = two_player_han(author.user, reader.user)
    row = services.send_message(match.pk, "players", author.user, "rude words")
    return match, row, author, reader, outsider


def _report(match, row, token, reason="abuse", note=None):
    return gql(REPORT, {"match": str(match.pk), "room": "players", "message": str(row["id"]),
                        "reason": reason, "note": note}, token=token)["data"]["reportChatMessage"]


def test_a_reader_reports_once_and_again_gets_the_same_report(said):
    match, row, _author, reader, _outsider = said
    first = _report(match, row, reader.token, note="twice now")
    assert first["errors"] == [] and first["created"] is True
    report = first["report"]
    assert (report["message"], report["reason"], report["note"], report["status"]) == (
        str(row["id"]), "abuse", "twice now", "open")
    again = _report(match, row, reader.token, reason="spam")
    assert again["created"] is False and again["report"] == report
    assert ChatReport.objects.count() == 1


@pytest.mark.parametrize(("who", "reason", "code"), [
    ("reader", "meh", "chat_report_reason_invalid"),
    ("author", "abuse", "chat_report_own_message"),
    ("outsider", "abuse", "chat_room_not_readable"),
    (None, "abuse", "not_authenticated"),
])
def test_a_refused_report_is_in_the_payload_and_stores_nothing(said, who, reason, code):
    match, row, author, reader, outsider = said
    token = {"reader": reader, "author": author, "outsider": outsider}[who].token \
        if who else None
    answer = _report(match, row, token, reason=reason)
    assert answer["report"] is None and [e["code"] for e in answer["errors"]] == [code]
    assert not ChatReport.objects.exists()
