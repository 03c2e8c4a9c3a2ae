"""Texts a person reads (error messages, board labels), written so another language can
replace them.

The rules library has no Django and no message catalogue: it writes English. Every such
text is built with ``tr(template, **values)``, which gives the English text (a ``str``,
so callers that only print it see no difference) and remembers its template and values.
The service (games/i18n/) extracts the templates with ``makemessages`` (``tr`` is one of
its keywords), translates them with gettext and fills in the same values: the German of
"you hold no {card} card" is looked up once, whatever the card.

Templates use ``str.format`` fields, named (``{card}``, ``{card!r}``), so a translation
may put them in another order. Values are ids and numbers from the move or the state,
never hidden information (they appear in the English text too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Text(str):
    """An English text that remembers how it was made: ``template`` and ``values``."""

    template: str
    values: dict

    def __new__(cls, template: str, **values) -> Text:
        made = super().__new__(cls, template.format(**values) if values else template)
        made.template = template
        made.values = values
        return made

    def translated(self, translate: Callable[[str], str]) -> str:
        """This text in another language: ``translate`` maps a template to its
        translation, whose fields are then filled with the same values."""
        translation = translate(self.template)
        if not self.values:
            return translation
        try:
            return translation.format(**self.values)
        except (KeyError, IndexError, ValueError):
            # A translation naming a field the template has not: the English stays right.
            return str(self)


def tr(template: str, /, **values) -> Text:
    """Mark ``template`` as a text for people and fill in ``values`` (str.format)."""
    return Text(template, **values)


def translated(text: str, translate: Callable[[str], str] | None) -> str:
    """``text`` through ``translate``: a ``Text`` by its template, a plain ``str`` (a name
    from the game data, say) as it is; no ``translate`` leaves it English."""
    if translate is None:
        return str(text)
    if isinstance(text, Text):
        return text.translated(translate)
    return translate(text)


#: the translation of the drawing being made (``translating``), None for English
_drawing_translation: ContextVar[Callable[[str], str] | None] = ContextVar(
    "rules_text_drawing_translation", default=None)


@contextmanager
def translating(translate: Callable[[str], str] | None) -> Iterator[None]:
    """Within this block, ``in_drawing_language`` translates with ``translate``. The
    board drawings use it so that their many labels need no ``translate`` argument handed
    from function to function; a context variable, so threads and tasks never mix."""
    token = _drawing_translation.set(translate)
    try:
        yield
    finally:
        _drawing_translation.reset(token)


def in_drawing_language(text: str) -> str:
    """``text`` in the language of the drawing being made (see ``translating``)."""
    return translated(text, _drawing_translation.get())
