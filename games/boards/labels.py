"""The names a picture of a match shows for its seats. The renderers in rules/ know seats
only (no users): the drawing's "seat N" texts become the seat's player here.

A seat a bot took over from a person still names that person (issue 22): "alice (greedy
bot)", so a timed-out or resigned player does not disappear from the picture.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.matches import selectors
from games.matches.models import Match


def seat_names(match: Match) -> dict[int, str]:
    """Position -> the username, "<kind> bot", "<username> (<kind> bot)" for a seat a bot
    took over, or "open" (the seats of ``selectors.seats_of``)."""
    names = {}
    for seat in selectors.seats_of(match):
        if seat["kind"] == "open":
            names[seat["position"]] = _("open")
        elif seat["kind"] == "human":
            names[seat["position"]] = seat["user"]
        elif seat["user"]:
            names[seat["position"]] = _("%(user)s (%(bot)s bot)") % {
                "user": seat["user"], "bot": seat["bot_kind"]}
        else:
            names[seat["position"]] = _("%(bot)s bot") % {"bot": seat["bot_kind"]}
    return names


_TEXT_NODE = re.compile(r">([^<]+)<")


def label_seats(svg: str, names: dict[int, str]) -> str:
    """The drawing with "seat N" in its texts replaced by the seat's player name. The
    renderers know seats only (rules/ has no users); names are escaped like their texts.
    The drawing is in the active language: its word for a seat ("Platz") is matched too."""
    words = {"seat", pgettext("the word for a seat on the board drawings", "seat")}
    alternatives = "|".join(re.escape(word) for word in words)
    seat_label = re.compile(rf"\b({alternatives}) (\d+)\b", re.IGNORECASE)

    def name(match: re.Match) -> str:
        position = int(match.group(2))
        return escape(names[position]) if position in names else match.group(0)

    return _TEXT_NODE.sub(lambda node: ">" + seat_label.sub(name, node.group(1)) + "<", svg)
