"""A drawing as PNG, for places that take no SVG (chat apps, social cards). CairoSVG (on
Debian's libcairo2, installed by scripts/cairo.sh, the ``images`` extra of pyproject.toml)
does the rasterising: no pixel is drawn by hand here."""

from __future__ import annotations

from games.boards.errors import PngUnavailable


def svg_to_png(svg: str) -> bytes:
    """``svg`` rasterised at its own size. Raises PngUnavailable (501) when cairosvg or
    its C library is missing."""
    try:
        import cairosvg  # the optional "images" extra: a server without it still serves SVG
    except (ImportError, OSError) as missing:  # OSError: cairocffi finds no libcairo
        raise PngUnavailable(details={"missing": type(missing).__name__}) from None
    # unsafe=False (the default): no external file or URL is ever fetched while drawing
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))
