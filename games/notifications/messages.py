"""A push's text in its reader's language (en/de: games/i18n): a title and a body made of
the event's public facts only, and the page to open."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from games.notifications.models import (
    CHAT_MESSAGE,
    INVITATION,
    MATCH_FINISHED,
    MATCH_STARTED,
    REMINDER,
    YOUR_TURN,
)
from rules import available_games, get_engine

#: the event types a push is written for; others are not pushed
PUSHED = (YOUR_TURN, INVITATION, MATCH_STARTED, MATCH_FINISHED, REMINDER, CHAT_MESSAGE)


def game_title(game: object) -> str:
    """The game's title in the active language, as the catalogue gives it (push and mail).
    A game this service does not offer (any more) is named by its id, as the match names
    it; only an event without a game says "a game"."""
    if not game:
        return _("a game")
    if game not in available_games():
        return str(game)
    return _(get_engine(game).describe()["title"])  # the catalogue's title, translated


def push_text(event_type: str, data: dict, language: str) -> dict | None:
    """``{"title", "body", "type", "data"}`` for ``event_type`` in ``language``; None for
    an event type that is not pushed."""
    if event_type not in PUSHED:
        return None
    with translation.override(language):
        facts = {"game": game_title(data.get("game")), "match": data.get("match_id")}
        if event_type == YOUR_TURN:
            title, body = _("Your turn"), _("It is your turn in %(game)s (match %(match)s).")
        elif event_type == INVITATION:
            title, body = _("Invitation"), _("You are invited to a match (%(match)s).")
        elif event_type == MATCH_STARTED:
            title, body = _("Match started"), _("Your match %(match)s of %(game)s started.")
        elif event_type == MATCH_FINISHED:
            title, body = _("Match over"), _("Your match %(match)s of %(game)s is over.")
        elif event_type == CHAT_MESSAGE:  # never the text: a notice to come and read it
            title, body = _("New chat message"), _("A player wrote in match %(match)s.")
        else:
            title = _("Your move is waiting")
            body = _("Your time in %(game)s (match %(match)s) runs out at %(deadline)s UTC.")
            facts["deadline"] = str(data.get("deadline", ""))[:16].replace("T", " ")
        return {"type": event_type, "title": str(title), "body": str(body) % facts,
                "data": data}
