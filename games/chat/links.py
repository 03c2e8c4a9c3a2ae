"""The link filter of the spectators' rooms (docs/chat.md "Links"): a message there that
holds a link is refused, code ``chat_links_not_allowed``, before anything is stored. The
players' rooms have no filter (the players know each other, or at least chose the table).

Refused rather than rewritten: a rewritten message would say something its author did not
write, and the author learns at once why it did not go out. A spectators' room is where
strangers meet, so it is where spam and phishing links land.

A link is, case-insensitively:

- a scheme and ``//`` (``https://x``, ``ftp://x``), or ``www.`` followed by a name;
- a name, a dot and a top-level domain of ``TOP_LEVEL_DOMAINS`` (``example.com``,
  ``discord.gg/abc``), whole words: "well played.next time" is no link, since ``next``
  is not one of them.

It is a filter against ordinary links, not against someone set on writing "example dot
com": those are for moderation (reports, time-outs).
"""

from __future__ import annotations

import re

from games.chat.errors import ChatLinksNotAllowed
from games.chat.models import RoomKind

#: the top-level domains spam and phishing use most, and the common national ones
TOP_LEVEL_DOMAINS = (
    "com", "net", "org", "info", "biz", "io", "co", "gg", "me", "ly", "tv", "xyz", "app",
    "dev", "site", "online", "shop", "link", "click", "top", "gl", "to", "sh", "ai", "cc",
    "de", "at", "ch", "uk", "fr", "nl", "eu", "us", "ru", "cn", "be", "it", "es", "pl",
)

LINK = re.compile(
    r"[a-z][a-z0-9+.\-]*://\S"  # a scheme: https://, ftp://, discord://
    r"|\bwww\.\w"
    r"|\b[\w\-]+(?:\.[\w\-]+)*\.(?:" + "|".join(TOP_LEVEL_DOMAINS) + r")\b(?![\w\-])",
    re.IGNORECASE,
)


def holds_link(text: str) -> bool:
    return LINK.search(text) is not None


def refuse_links(kind: str, text: str) -> None:
    """Raise ChatLinksNotAllowed (400) for a link in a spectators' room's message."""
    if kind == RoomKind.SPECTATORS and holds_link(text):
        raise ChatLinksNotAllowed()
