"""Control characters in the text clients send: refused, by one rule, before anything
reads the text (issue 21).

PostgreSQL's text cannot hold NUL (U+0000): a username, an invite code or an invitee with
one reached the database and failed there (psycopg ``DataError``, a 500). The other C0
controls (U+0001-U+001F) and DEL (U+007F) are stored fine but belong in no name, code,
option or move: they rewrite terminals and split log lines. So every text a client sends
is checked here first, whatever reads it later:

- REST: every string and every object key of a JSON body, at any depth
  (``infra/parsers.py``), every query parameter and every part of the URL path
  (``infra/api_views.py``);
- GraphQL: every string argument, ``ID``, and string inside a ``JSON`` value or an input
  object, written in the document or sent as a variable (``games/graphql/text_inputs.py``);
- the feed stream's query (``games/api/feed/views.py``); a token key holding one is a bad
  token, 401, without a query (``accounts/token_auth.py``).

A refusal is a 400 ``invalid_input`` naming where the character is, as a field path
(``usernames.1``, ``options.map``), with the per-field code ``control_characters``. It
never repeats a value (it may be a password); an object key holding one is named with the
character escaped (``ty\\x00pe``).

Free text over several lines may hold TAB, LF and CR (never NUL or the other controls):
the fields that take it say so (``ApiView.multiline_fields``, GraphQL's
``MULTILINE_ARGUMENTS``). Today that is only the reason given when aborting a match.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ErrorDetail, ValidationError

#: U+0000-U+001F and U+007F
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f]")
#: the same, less TAB, LF and CR: what free text over several lines may not hold
CONTROL_CHARACTERS_BUT_LINE_BREAKS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

MESSAGE = _("Control characters (U+0000-U+001F, U+007F) are not accepted here.")
MULTILINE_MESSAGE = _("Control characters other than tab, line feed and carriage return "
                      "(U+0000-U+001F, U+007F) are not accepted here.")


class ControlCharacters(ValidationError):
    """400 ``invalid_input`` with the field's own code, rendered by infra/api_errors.py as
    any serializer's field error. A DRF ValidationError rather than an ApiError: the
    parsers and the token check import this module while DRF's own modules are loading,
    before infra.api_errors can be."""

    code = "invalid_input"

    def __init__(self, where: str, multiline: bool = False) -> None:
        text = str(MULTILINE_MESSAGE if multiline else MESSAGE)  # in the request's language
        super().__init__({where: [ErrorDetail(text, code="control_characters")]})
        self.message = gettext("Invalid input: %(problem)s") % {"problem": f"{where}: {text}"}
        self.details = {where: [{"message": text, "code": "control_characters"}]}


def _shown(key: str) -> str:
    """An object key as a path part: control characters escaped (``a\\x00b``), short."""
    return key.encode("unicode_escape").decode("ascii")[:40]


def _join(path: str, part: str) -> str:
    return f"{path}.{part}" if path else part


def find_control_characters(value: Any, path: str,
                            multiline: Collection[str] = ()) -> str | None:
    """The path of the first string in ``value`` (an object's key too) that holds a control
    character, or None. ``value`` is JSON-like (dicts, lists, scalars), named ``path``;
    below it a key adds ``.key``, a list index ``.0``. Strings whose path starts with a
    name in ``multiline`` may hold TAB, LF and CR. No recursion: bodies nest up to 64
    levels (infra/parsers.py)."""
    pending = [(value, path)]
    while pending:
        item, where = pending.pop()
        if isinstance(item, str):
            head = where.split(".", 1)[0]
            pattern = (CONTROL_CHARACTERS_BUT_LINE_BREAKS if head in multiline
                       else CONTROL_CHARACTERS)
            if pattern.search(item):
                return where
        elif isinstance(item, dict):
            children = []
            for key, child in item.items():
                key = str(key)
                if CONTROL_CHARACTERS.search(key):
                    return _join(where, _shown(key))
                children.append((child, _join(where, key)))
            pending.extend(reversed(children))  # depth first, in document order
        elif isinstance(item, (list, tuple)):
            pending.extend(reversed([(child, _join(where, str(index)))
                                     for index, child in enumerate(item)]))
    return None


def refuse_control_characters(value: Any, path: str,
                              multiline: Collection[str] = ()) -> None:
    """Raise ControlCharacters (400 ``invalid_input``) if ``value`` holds a control
    character anywhere (see ``find_control_characters``)."""
    where = find_control_characters(value, path, multiline)
    if where is not None:
        raise ControlCharacters(where, where.split(".", 1)[0] in multiline)
