"""What each mail says, in the active language: its subject and its one sentence. Built
from the event's public data only (ids, the game, the ply, the seat, the status, a
deadline): never a hand, a deck or a seed."""

from __future__ import annotations

from datetime import datetime

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.mail.models import (
    CHAT_MESSAGE,
    INVITATION,
    MATCH_FINISHED,
    MATCH_STARTED,
    REMINDER,
    YOUR_TURN,
)
from games.notifications.messages import game_title


def _deadline(value: object) -> str:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value or "")
    return formats.date_format(moment, "DATETIME_FORMAT") + " UTC"


def subject(event_type: str, data: dict) -> str:
    fields = {"game": game_title(data.get("game")), "match": data.get("match_id", "")}
    if event_type == YOUR_TURN:
        return _("Your turn in %(game)s, match %(match)s") % fields
    if event_type == INVITATION:
        return _("You are invited to a match of %(game)s") % fields
    if event_type == MATCH_STARTED:
        return _("Your match %(match)s of %(game)s has started") % fields
    if event_type == MATCH_FINISHED:
        return _("Your match %(match)s of %(game)s has ended") % fields
    if event_type == REMINDER:
        return _("Reminder: your move in match %(match)s is due soon") % fields
    if event_type == CHAT_MESSAGE:
        return _("New chat messages in match %(match)s") % fields
    return _("News from your matches")


def sentence(event_type: str, data: dict) -> str:
    fields = {"game": game_title(data.get("game")), "match": data.get("match_id", ""),
              "ply": data.get("ply", ""), "seat": data.get("seat", ""),
              "deadline": _deadline(data.get("deadline"))}
    if event_type == YOUR_TURN:
        return _("It is your turn in match %(match)s of %(game)s (move %(ply)s).") % fields
    if event_type == INVITATION:
        if data.get("match_id"):
            return _("You have been invited to match %(match)s of %(game)s.") % fields
        return _("You have been invited to a match.")
    if event_type == MATCH_STARTED:
        return _("Match %(match)s of %(game)s has been dealt: the game is on.") % fields
    if event_type == MATCH_FINISHED:
        if data.get("status") == "aborted":
            return _("Match %(match)s of %(game)s was aborted.") % fields
        return _("Match %(match)s of %(game)s has ended: see the result.") % fields
    if event_type == REMINDER:
        return _("Your move in match %(match)s of %(game)s is due by %(deadline)s.") % fields
    if event_type == CHAT_MESSAGE:
        return _("There are new chat messages in match %(match)s of %(game)s.") % fields
    return pgettext("mail", "Something happened in one of your matches.")


def kind_name(event_type: str) -> str:
    """The event type as the unsubscribe link names it."""
    return {
        YOUR_TURN: _("“your turn” e-mails"),
        INVITATION: _("invitation e-mails"),
        MATCH_STARTED: _("“match started” e-mails"),
        MATCH_FINISHED: _("“match ended” e-mails"),
        REMINDER: _("reminder e-mails"),
        CHAT_MESSAGE: _("chat e-mails"),
    }.get(event_type, _("these e-mails"))
