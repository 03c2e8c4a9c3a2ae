"""The rules library's texts (rules/text.py) in the language of the request or socket.

rules/ writes English and builds every message with ``rules.text.tr``, which keeps the
template and its values; here the template goes through Django's gettext (the German is
in locale/de/LC_MESSAGES/django.po) and the values are filled in again. Names from the
game data (a province, a city) are plain strings and are looked up as they are
(games/i18n/data_names.py lists them for makemessages).
"""

from __future__ import annotations

from django.utils.translation import gettext

from rules.engine import IllegalMove
from rules.text import translated


def localized(text: str) -> str:
    """``text`` (a ``rules.text.Text`` or a data name) in the active language."""
    return translated(text, gettext)


def message_of(exc: Exception) -> str:
    """The message of a rules exception (IllegalMove, InvalidOptions) in the active
    language, as short as IllegalMove keeps the English (it may quote the client's
    input)."""
    message = localized(getattr(exc, "text", None) or str(exc))
    limit = IllegalMove.MAX_MESSAGE_LENGTH
    return message if len(message) <= limit else message[: limit - 3] + "..."
