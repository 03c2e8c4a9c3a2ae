"""Text a screen reader can read, added to a board drawing: ``role="img"``, a ``<title>``
(what the picture is) and a ``<desc>`` (what it shows, in words: the drawing's own
texts, in drawing order), tied to the root by ``aria-labelledby``/``aria-describedby``.
An ``<img src=".../board.svg" alt="...">`` still needs its own ``alt``: browsers do not
read an image file's title for it (docs/frontend.md)."""

from __future__ import annotations

import re
from xml.etree import ElementTree
from xml.sax.saxutils import escape, quoteattr

_ROOT = re.compile(r"<svg\b([^>]*)>")
_SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def drawn_texts(svg: str) -> list[str]:
    """Every text element's words, in drawing order (the renderers' SVG is well-formed:
    every text in it is escaped, rules/svg.py)."""
    root = ElementTree.fromstring(svg)
    texts = (" ".join("".join(node.itertext()).split()) for node in root.iter(_SVG_TEXT))
    return [text for text in texts if text]


def with_title(svg: str, title: str, description: str, language: str) -> str:
    """``svg`` with ``title`` and ``description`` as its first children and the root
    marked as one image labelled by them, in ``language``."""
    def opening(found: re.Match) -> str:
        return (f"<svg{found.group(1)} role=\"img\" aria-labelledby=\"board-title\" "
                f"aria-describedby=\"board-desc\" xml:lang={quoteattr(language)}>"
                f"\n<title id=\"board-title\">{escape(title)}</title>"
                f"\n<desc id=\"board-desc\">{escape(description)}</desc>")

    return _ROOT.sub(opening, svg, count=1)
