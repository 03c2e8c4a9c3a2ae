"""The analysis's evaluation graph, drawn server-side as SVG for the admin's replay page:
one line per seat through its decisions (its expected points ahead of the field with its
best play, as the analysis judged it from that seat's view), a zero line, a marker at the
ply shown, and a dot on each labelled decision; both axes named and a legend naming each
seat's player, in the reader's language. Each seat is drawn in the colour its game's board
gives it (``Engine.seat_colours``, issue 41), outlined dark as the board outlines its pieces
so a light seat colour still reads on white. Pure string building with every text escaped,
so the page may mark it safe."""

from __future__ import annotations

from html import escape

from django.utils.translation import gettext as _

WIDTH, HEIGHT, MARGIN = 720, 260, 36
LEFT, BOTTOM = 56, 76  # room for the y axis's name and numbers; the x axis's name, the legend
OUTLINE = "#111111"
#: for a game whose board colours no seat (Engine.seat_colours is empty)
FALLBACK_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
LABEL_RADIUS = {"inaccuracy": 2.5, "mistake": 3.5, "blunder": 4.5}


def evaluation_svg(series: list[list[tuple[int, float]]], labels: dict[int, str],
                   names: dict[int, str], plies: int, marked_ply: int,
                   seat_colours: tuple[str, ...] = ()) -> str:
    """``series``: per seat its ``(ply, value)`` points; ``labels``: ply -> label of the
    decisions that earned one; ``names``: seat -> player name; ``plies``: the match's
    length (the x axis); ``marked_ply``: the ply the page shows; ``seat_colours``: the
    board's colour of each seat."""
    colours = tuple(seat_colours) or FALLBACK_COLOURS
    values = [value for points in series for _ply, value in points] or [0.0]
    top, bottom = max(max(values), 1.0), min(min(values), -1.0)
    span_x, span_y = max(plies, 1), top - bottom
    inner_w, inner_h = WIDTH - LEFT - MARGIN, HEIGHT - MARGIN - BOTTOM

    def x(ply: float) -> float:
        return LEFT + inner_w * ply / span_x

    def y(value: float) -> float:
        return MARGIN + inner_h * (top - value) / span_y

    # named outside the f-strings: xgettext does not read inside them
    x_name, y_name, legend = _("ply (moves played)"), _("expected lead (points)"), _("Legend:")
    title = _("evaluation per seat")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'role="img" aria-label="{escape(title)}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - MARGIN}" y2="{y(0):.1f}" '
             f'stroke="#888" stroke-dasharray="4 3"/>',
             f'<text x="{LEFT - 4}" y="{y(top) + 4:.0f}" font-size="10" '
             f'text-anchor="end">{top:+.0f}</text>',
             f'<text x="{LEFT - 4}" y="{y(bottom) + 4:.0f}" font-size="10" '
             f'text-anchor="end">{bottom:+.0f}</text>',
             f'<text x="{LEFT - 4}" y="{HEIGHT - BOTTOM + 14}" font-size="10" '
             f'text-anchor="end">0</text>',
             f'<text x="{WIDTH - MARGIN}" y="{HEIGHT - BOTTOM + 14}" font-size="10" '
             f'text-anchor="end">{plies}</text>',
             f'<text class="x-axis" x="{LEFT + inner_w / 2:.0f}" y="{HEIGHT - BOTTOM + 28}" '
             f'font-size="11" text-anchor="middle">{escape(x_name)}</text>',
             f'<text class="y-axis" x="14" y="{MARGIN + inner_h / 2:.0f}" font-size="11" '
             f'text-anchor="middle" transform="rotate(-90 14 {MARGIN + inner_h / 2:.0f})">'
             f'{escape(y_name)}</text>',
             f'<line x1="{x(marked_ply):.1f}" y1="{MARGIN}" x2="{x(marked_ply):.1f}" '
             f'y2="{HEIGHT - BOTTOM}" stroke="#444" stroke-width="1.5"/>',
             f'<text class="legend" x="{LEFT}" y="{HEIGHT - 12}" font-size="11">'
             f'{escape(legend)}</text>']
    for seat, points in enumerate(series):
        colour = colours[seat % len(colours)]
        if len(points) > 1:
            path = " ".join(f"{x(ply):.1f},{y(value):.1f}" for ply, value in points)
            parts.append(f'<polyline class="outline" fill="none" stroke="{OUTLINE}" '
                         f'stroke-width="3.5" points="{path}"/>')
            parts.append(f'<polyline class="seat-{seat}" fill="none" stroke="{colour}" '
                         f'stroke-width="2" points="{path}"/>')
        for ply, value in points:
            if ply in labels:  # the label's word: extracted for translation in analysis_panel
                title = _("ply %(ply)s: %(label)s") % {"ply": ply, "label": _(labels[ply])}
                parts.append(f'<circle cx="{x(ply):.1f}" cy="{y(value):.1f}" '
                             f'r="{LABEL_RADIUS[labels[ply]]}" fill="{colour}" '
                             f'stroke="{OUTLINE}">'
                             f'<title>{escape(title)}</title></circle>')
        name = names.get(seat) or _("seat %(seat)s") % {"seat": seat}
        left = LEFT + 70 + 130 * seat
        parts.append(f'<rect class="legend-seat" data-seat="{seat}" x="{left}" '
                     f'y="{HEIGHT - 22}" width="18" height="12" fill="{colour}" '
                     f'stroke="{OUTLINE}"/>')
        parts.append(f'<text class="legend-name" data-seat="{seat}" x="{left + 24}" '
                     f'y="{HEIGHT - 12}" font-size="11" fill="#222">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)
