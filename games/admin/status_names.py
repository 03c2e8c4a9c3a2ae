"""A match's status as the admin reads it, in the reader's language (issue 41: the replay
page said "Status finished" in German). MatchStatus's labels are English and part of the
migrations' state, so the admin's names live here rather than there."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

MATCH_STATUS_NAMES = {
    "open": gettext_lazy("open (waiting for players)"),
    "active": gettext_lazy("active"),
    "scoring": gettext_lazy("scoring"),
    "finished": gettext_lazy("finished"),
    "aborted": gettext_lazy("aborted"),
}


def match_status_name(status: str) -> str:
    return str(MATCH_STATUS_NAMES.get(status, status))
