"""GraphQL fields of notifications: ``myNotificationPreferences`` and
``setNotificationPreferences`` (REST: /api/v1/me/notification-preferences/), the same
services (games/notifications/preferences.py)."""

from __future__ import annotations

import strawberry
from strawberry.types import Info

from games.graphql.context import authenticated_user
from games.graphql.errors import attempt, signed_in
from games.graphql.types import GameError
from games.matches import errors
from games.notifications import preferences
from games.notifications.models import EVENT_TYPES
from games.notifications.waiting import games_waiting_for
from infra.paging import InvalidPageBounds


@strawberry.type(description="Each event type on or off for one channel.")
class ChannelPreferences:
    your_turn: bool
    invitation: bool
    match_started: bool
    match_finished: bool
    reminder: bool
    chat_message: bool


@strawberry.input(description="The event types to turn on or off; null leaves one as is.")
class ChannelPreferencesInput:
    your_turn: bool | None = None
    invitation: bool | None = None
    match_started: bool | None = None
    match_finished: bool | None = None
    reminder: bool | None = None
    chat_message: bool | None = None


@strawberry.type(description="Your notification preferences (defaults filled in).")
class NotificationPreferences:
    push: ChannelPreferences
    email: ChannelPreferences

    @classmethod
    def from_table(cls, table: dict[str, dict[str, bool]]) -> NotificationPreferences:
        return cls(**{channel: ChannelPreferences(**events)
                      for channel, events in table.items()})


@strawberry.type(description="A match waiting for your move (REST: a row of GET "
                 "/api/v1/me/waiting-games/).")
class WaitingGame:
    match_id: strawberry.ID
    game: str
    players: int
    ply: int
    seat: int = strawberry.field(description="Your seat that owes a decision.")
    time_control: str = strawberry.field(description="none, realtime or turn_based.")
    deadline: str | None = strawberry.field(description="When your seat's clock runs out "
                                            "(UTC, ISO 8601 with Z); null without a clock.")

    @classmethod
    def from_row(cls, row: dict) -> WaitingGame:
        return cls(**{**row, "match_id": strawberry.ID(str(row["match_id"]))})


@strawberry.type
class NotificationPreferencesPayload:
    preferences: NotificationPreferences | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


def _changes(channel_input: ChannelPreferencesInput | None) -> dict[str, bool]:
    if channel_input is None:
        return {}
    values = {name: getattr(channel_input, name) for name in EVENT_TYPES}
    return {name: value for name, value in values.items() if value is not None}


@strawberry.type
class NotificationQueries:
    @strawberry.field(description="Your notification preferences per channel and event "
                      "type (REST: GET /api/v1/me/notification-preferences/).")
    def my_notification_preferences(self, info: Info) -> NotificationPreferences:
        user = authenticated_user(info)
        if user is None:
            raise errors.AuthenticationRequired()
        return NotificationPreferences.from_table(preferences.preferences_of(user.pk))

    @strawberry.field(description="Games waiting for your move, earliest deadline first "
                      "(none last): REST's GET /api/v1/me/waiting-games/ rows.")
    def games_waiting_for_me(self, info: Info, limit: int = 20, offset: int = 0
                             ) -> list[WaitingGame]:
        user = authenticated_user(info)
        if user is None:
            raise errors.AuthenticationRequired()
        if not (1 <= limit <= 100 and offset >= 0):
            raise InvalidPageBounds()
        rows = games_waiting_for(user)[offset:offset + limit]
        return [WaitingGame.from_row(row) for row in rows]


@strawberry.type
class NotificationMutations:
    @strawberry.mutation(description="Turn notifications on or off (REST: PATCH "
                         "/api/v1/me/notification-preferences/).")
    def set_notification_preferences(
            self, info: Info, push: ChannelPreferencesInput | None = None,
            email: ChannelPreferencesInput | None = None) -> NotificationPreferencesPayload:
        user, problems = signed_in(info)
        if problems:
            return NotificationPreferencesPayload(errors=problems)
        body = {channel: changes for channel, changes in
                (("push", _changes(push)), ("email", _changes(email))) if changes}
        table, problems = attempt(lambda: preferences.set_preferences(
            user.pk, preferences.parse_changes(body)))
        if problems:
            return NotificationPreferencesPayload(errors=problems)
        return NotificationPreferencesPayload(
            preferences=NotificationPreferences.from_table(table))
