"""The analysis's evaluation graph, drawn server-side as SVG for the admin's replay page:
one line per seat through its decisions (its expected points ahead of the field with its
best play, as the analysis judged it from that seat's view), a zero line, a marker at the
ply shown, and a dot on each labelled decision. Pure string building with every text
escaped, so the page may mark it safe."""

from __future__ import annotations

from html import escape

from django.utils.translation import gettext as _

WIDTH, HEIGHT, MARGIN = 720, 220, 36
#: one colour per seat (five at most), readable on the admin's light and dark themes
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
LABEL_RADIUS = {"inaccuracy": 2.5, "mistake": 3.5, "blunder": 4.5}


def evaluation_svg(series: list[list[tuple[int, float]]], labels: dict[int, str],
                   names: dict[int, str], plies: int, marked_ply: int) -> str:
    """``series``: per seat its ``(ply, value)`` points; ``labels``: ply -> label of the
    decisions that earned one; ``names``: seat -> player name; ``plies``: the match's
    length (the x axis); ``marked_ply``: the ply the page shows."""
    values = [value for points in series for _ply, value in points] or [0.0]
    top, bottom = max(max(values), 1.0), min(min(values), -1.0)
    span_x, span_y = max(plies, 1), top - bottom
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN

    def x(ply: float) -> float:
        return MARGIN + inner_w * ply / span_x

    def y(value: float) -> float:
        return MARGIN + inner_h * (top - value) / span_y

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'role="img" aria-label="{escape(_("evaluation per seat"))}">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
             f'<line x1="{MARGIN}" y1="{y(0):.1f}" x2="{WIDTH - MARGIN}" y2="{y(0):.1f}" '
             f'stroke="#888" stroke-dasharray="4 3"/>',
             f'<text x="4" y="{MARGIN:.0f}" font-size="10">{top:+.0f}</text>',
             f'<text x="4" y="{HEIGHT - MARGIN:.0f}" font-size="10">{bottom:+.0f}</text>',
             f'<line x1="{x(marked_ply):.1f}" y1="{MARGIN}" x2="{x(marked_ply):.1f}" '
             f'y2="{HEIGHT - MARGIN}" stroke="#444" stroke-width="1.5"/>']
    for seat, points in enumerate(series):
        colour = COLOURS[seat % len(COLOURS)]
        if len(points) > 1:
            path = " ".join(f"{x(ply):.1f},{y(value):.1f}" for ply, value in points)
            parts.append(f'<polyline class="seat-{seat}" fill="none" stroke="{colour}" '
                         f'stroke-width="1.5" points="{path}"/>')
        for ply, value in points:
            if ply in labels:  # the label's word: extracted for translation in analysis_panel
                title = _("ply %(ply)s: %(label)s") % {"ply": ply, "label": _(labels[ply])}
                parts.append(f'<circle cx="{x(ply):.1f}" cy="{y(value):.1f}" '
                             f'r="{LABEL_RADIUS[labels[ply]]}" fill="{colour}">'
                             f'<title>{escape(title)}</title></circle>')
        name = names.get(seat) or _("seat %(seat)s") % {"seat": seat}
        parts.append(f'<text x="{MARGIN + 110 * seat}" y="{HEIGHT - 8}" font-size="11" '
                     f'fill="{colour}">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)
