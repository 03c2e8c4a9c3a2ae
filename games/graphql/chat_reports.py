"""GraphQL field of chat reports: ``reportChatMessage``, the same as
``POST /api/v1/matches/{id}/chat/{room}/{message_id}/report/`` (docs/chat.md
"Moderation"). Thin: games.chat.moderation.reports decides."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.types import Info

from games.chat.moderation.reports import report_message
from games.graphql.errors import attempt, signed_in
from games.graphql.types import GameError


@strawberry.type(description="A chat message's report, as its reporter is shown it.")
class ChatReport:
    id: strawberry.ID
    message: strawberry.ID = strawberry.field(description="The reported message's id.")
    reason: str = strawberry.field(description="spam, abuse, hate, cheating, "
                                   "personal_data or other.")
    note: str
    status: str = strawberry.field(description="open, actioned or dismissed.")
    created_at: datetime


@strawberry.type
class ReportChatMessagePayload:
    report: ChatReport | None = None
    #: false when reporting again: the report as first filed, unchanged
    created: bool = False
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class ChatReportMutations:
    @strawberry.mutation(description="Report a chat message you may read to the moderators "
                         "(REST: POST /api/v1/matches/{id}/chat/{room}/{message_id}/report/). "
                         "Reporting it again answers the same report (created: false).")
    def report_chat_message(self, info: Info, match_id: strawberry.ID, room: str,
                            message_id: strawberry.ID, reason: str,
                            note: str | None = None) -> ReportChatMessagePayload:
        user, problems = signed_in(info)
        if problems:
            return ReportChatMessagePayload(errors=problems)
        answer, problems = attempt(lambda: report_message(match_id, room, message_id, user,
                                                          reason, note))
        if problems:
            return ReportChatMessagePayload(errors=problems)
        row, created = answer
        return ReportChatMessagePayload(report=ChatReport(
            id=strawberry.ID(str(row["id"])), message=strawberry.ID(str(row["message"])),
            reason=row["reason"], note=row["note"], status=row["status"],
            created_at=datetime.fromisoformat(row["created_at"])), created=created)
