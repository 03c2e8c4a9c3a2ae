"""Escaped SVG element building, shared by the games' board drawings (render_svg).

Every text and attribute value goes through ``escape`` / ``quoteattr`` here, so a drawing
built only from these helpers is well-formed XML and safe to embed in an HTML page.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from rules.text import in_drawing_language


def svg_attrs(attrs: dict) -> str:
    """``class_="x", data_seat=1`` -> ` class="x" data-seat="1"`; None values are left out."""
    return "".join(f" {name.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
                   for name, value in attrs.items() if value is not None)


def svg_element(tag: str, text: str | None = None, **attrs) -> str:
    """One element; ``text`` and every attribute value are escaped here. A string ``text``
    (a ``rules.text.tr`` label or a name from the game data) is put in the drawing's
    language (``rules.text.translating``); attribute values are ids and stay as they are."""
    if text is None:
        return f"<{tag}{svg_attrs(attrs)}/>"
    shown = in_drawing_language(text) if isinstance(text, str) else str(text)
    return f"<{tag}{svg_attrs(attrs)}>{escape(shown)}</{tag}>"
