"""Two reports of the same message by the same reader at the same moment (a double click
over two connections) file one report (docs/chat.md "Moderation"): real PostgreSQL,
two threads, each its own connection."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.chat import services
from games.chat.moderation.models import ChatReport
from games.chat.moderation.reports import report_message
from tests.games.chat.support import two_player_han

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_double_report_at_once_files_one(make_user):
    author, reader = make_user(), make_user()
    match = two_player_han(author, reader)
    said = services.send_message(match.pk, "players", author, "rude")
    start, answers = threading.Barrier(2), []

    def report() -> None:
        try:
            start.wait()
            answers.append(report_message(match.pk, "players", said["id"], reader, "abuse"))
        finally:
            connection.close()

    threads = [threading.Thread(target=report) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(answers) == 2
    assert sorted(new for _row, new in answers) == [False, True]
    assert answers[0][0]["id"] == answers[1][0]["id"]
    assert ChatReport.objects.filter(message_id=said["id"]).count() == 1
