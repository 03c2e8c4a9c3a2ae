"""Reading the SVG drawings of render_svg in tests: parse, and find elements by class."""

from __future__ import annotations

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    """The drawing as an element tree; it must be well-formed XML with an <svg> root."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}{tag}") if name in el.get("class", "").split()]
