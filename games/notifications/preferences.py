"""What each player wants to be told, on which channel: the defaults, ``allows`` (the
contract every channel asks: games/notifications/__init__.py) and the one write.

A preference is stored only once a player sets it; until then the default below holds,
so a new default reaches everyone who never chose."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.notifications.models import (
    CHANNELS,
    CHAT_MESSAGE,
    EMAIL,
    EVENT_TYPES,
    INVITATION,
    MATCH_FINISHED,
    MATCH_STARTED,
    PUSH,
    REMINDER,
    YOUR_TURN,
    Preference,
)
from infra.api_errors import ApiError

#: channel -> event type -> on or off for a player who never chose (docs/notifications.md):
#: what a waiting game needs is on; the chatty rest is off (a match starting is seen by
#: whoever started it; chat is read at the table)
DEFAULTS: dict[str, dict[str, bool]] = {
    PUSH: {YOUR_TURN: True, INVITATION: True, MATCH_STARTED: False, MATCH_FINISHED: True,
           REMINDER: True, CHAT_MESSAGE: False},
    EMAIL: {YOUR_TURN: True, INVITATION: True, MATCH_STARTED: False, MATCH_FINISHED: False,
            REMINDER: True, CHAT_MESSAGE: False},
}


class UnknownChannel(ApiError):
    default_code = "unknown_notification_channel"
    default_detail = _("Unknown notification channel: use push or email.")


class UnknownEventType(ApiError):
    default_code = "unknown_notification_event"
    default_detail = _("Unknown notification event type.")


class InvalidPreferences(ApiError):
    default_code = "invalid_input"
    default_detail = _("Preferences are an object of channels, each an object of event "
                       "types set to true or false.")


def allows(user_id: int, channel: str, event_type: str) -> bool:
    """Whether ``user_id`` wants ``event_type`` on ``channel``: their choice, else the
    default. An unknown channel or event type is never allowed."""
    return bool(allowed_users([user_id], channel, event_type))


def allowed_users(user_ids: Iterable[int], channel: str, event_type: str) -> list[int]:
    """Those of ``user_ids`` that ``allows`` ``event_type`` on ``channel``, in one query."""
    ids = list(dict.fromkeys(user_ids))
    default = DEFAULTS.get(channel, {}).get(event_type)
    if default is None or not ids:
        return []
    chosen = dict(Preference.objects.filter(user_id__in=ids, channel=channel,
                                            event_type=event_type)
                  .values_list("user_id", "enabled"))
    return [user_id for user_id in ids if chosen.get(user_id, default)]


def preferences_of(user_id: int) -> dict[str, dict[str, bool]]:
    """Every channel's every event type for ``user_id``, defaults filled in."""
    table = {channel: dict(events) for channel, events in DEFAULTS.items()}
    for channel, event_type, enabled in Preference.objects.filter(user_id=user_id).values_list(
            "channel", "event_type", "enabled"):
        table[channel][event_type] = enabled
    return table


def parse_changes(body: object) -> list[tuple[str, str, bool]]:
    """The (channel, event type, on/off) a request's body asks for, or the error that
    refuses the whole body: ``{"push": {"your_turn": false}, "email": {...}}``."""
    if not isinstance(body, dict) or not body:
        raise InvalidPreferences()
    changes = []
    for channel, events in body.items():
        if channel not in CHANNELS:
            raise UnknownChannel(details={"channel": str(channel)[:64],
                                          "allowed": list(CHANNELS)})
        if not isinstance(events, dict):
            raise InvalidPreferences(details={"channel": channel})
        for event_type, enabled in events.items():
            if event_type not in EVENT_TYPES:
                raise UnknownEventType(details={"event_type": str(event_type)[:64],
                                                "allowed": list(EVENT_TYPES)})
            if not isinstance(enabled, bool):
                raise InvalidPreferences(details={"channel": channel,
                                                  "event_type": event_type})
            changes.append((channel, event_type, enabled))
    return changes


def set_preferences(user_id: int, changes: Iterable[tuple[str, str, bool]]
                    ) -> dict[str, dict[str, bool]]:
    """Store ``changes`` (already parsed: ``parse_changes``), all or none; every
    preference of the user after them."""
    rows = [Preference(user_id=user_id, channel=channel, event_type=event_type,
                       enabled=enabled) for channel, event_type, enabled in changes]
    with transaction.atomic():
        Preference.objects.bulk_create(
            rows, update_conflicts=True, update_fields=["enabled"],
            unique_fields=["user", "channel", "event_type"])
    return preferences_of(user_id)
