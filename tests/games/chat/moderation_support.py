"""A reported message and its moderator, shared by the moderation tests."""

from __future__ import annotations

from games.chat import services
from games.chat.moderation.models import ChatReport
from games.chat.moderation.reports import report_message
from tests.games.chat.support import two_player_han


def reported_message(make_user, text: str = "you play like a potato"):
    """``(match, author, reader, the report, a moderator)``: the author's message in the
    players' room, reported by the other player."""
    author, reader = make_user(), make_user()
    moderator = make_user(is_staff=True, is_superuser=True)
    match = two_player_han(author, reader)
    said = services.send_message(match.pk, "players", author, text)
    row, _new = report_message(match.pk, "players", said["id"], reader, "abuse")
    return match, author, reader, ChatReport.objects.get(pk=row["id"]), moderator
