"""Characters no text a client sends may hold: refused, by one rule, before anything
reads the text (issues 21 and 39).

PostgreSQL's text cannot hold NUL (U+0000): a username, an invite code or an invitee with
one reached the database and failed there (psycopg ``DataError``, a 500). The other
characters refused are stored fine but belong in no name, code, option, move or reason
(docs/security.md, "Text inputs"):

- C0 controls U+0001-U+001F and DEL U+007F: they rewrite terminals and split log lines;
- C1 controls U+0080-U+009F (issue 39: an abort reason held U+0085, NEXT LINE, a line
  break to some readers);
- bidirectional controls: the embeddings and overrides U+202A-U+202E, the isolates
  U+2066-U+2069, and the marks U+200E, U+200F and U+061C: they make a name or a reason
  display in another order than it reads ("Trojan Source"), and the invisible marks make
  look-alike usernames (Unicode's identifier profile, UTS #39, leaves all of them out);
- surrogates U+D800-U+DFFF, which only a JSON ``\\u`` escape can send and no UTF-8 text
  holds (psycopg cannot encode them);
- non-characters U+FDD0-U+FDEF and the last two code points of every plane (U+FFFE,
  U+FFFF, U+1FFFE ... U+10FFFF): never meant for interchange.

Every text a client sends is checked here first, whatever reads it later:

- REST: every string and every object key of a JSON body, at any depth
  (``infra/parsers.py``), every query parameter and every part of the URL path
  (``infra/api_views.py``);
- GraphQL: every string argument, ``ID``, and string inside a ``JSON`` value or an input
  object, written in the document or sent as a variable (``games/graphql/text_inputs.py``);
- the play socket: every string and key of a frame (``games/play/protocol.py``);
- the feed stream's query (``games/api/feed/views.py``); a token key holding one is a bad
  token, 401, without a query (``accounts/token_auth.py``).

A refusal is a 400 ``invalid_input`` naming where the character is, as a field path
(``usernames.1``, ``options.map``), with the per-field code ``control_characters`` (kept
from issue 21 for every refused character: clients switch on it). It never repeats a
value (it may be a password); an object key holding one is named with the character
escaped (``ty\\x00pe``).

Free text over several lines may hold TAB, LF and CR (never NUL or any other character
above): the fields that take it say so (``ApiView.multiline_fields``, GraphQL's
``MULTILINE_ARGUMENTS``). Today that is only the reason given when aborting a match.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ErrorDetail, ValidationError

#: every refused character but TAB, LF and CR: C1 controls, bidirectional controls,
#: surrogates and non-characters (see the module's docstring)
_REFUSED_ABOVE_ASCII = ("\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                        "\ud800-\udfff\ufdd0-\ufdef"
                        + "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF)
                                  for plane in range(17)))
#: every character no text may hold
CONTROL_CHARACTERS = re.compile(f"[\x00-\x1f{_REFUSED_ABOVE_ASCII}]")
#: the same, less TAB, LF and CR: what free text over several lines may not hold
CONTROL_CHARACTERS_BUT_LINE_BREAKS = re.compile(
    f"[\x00-\x08\x0b\x0c\x0e-\x1f{_REFUSED_ABOVE_ASCII}]")

MESSAGE = _("Control characters, bidirectional controls and non-characters are not "
            "accepted here.")
MULTILINE_MESSAGE = _("Control characters other than tab, line feed and carriage return, "
                      "bidirectional controls and non-characters are not accepted here.")


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
