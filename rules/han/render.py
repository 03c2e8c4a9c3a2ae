"""Draw a Han view as an SVG picture: the board with its pieces, and a side panel.

For admins and debugging (the replay page in Django admin). The picture is built from the
``view`` alone, so it shows exactly what that seat (or a spectator) may see and nothing
hidden. The board's geometry (polygons, space coordinates, roads) comes from the map file
through ``board_data``. Every text and attribute value goes through ``escape`` /
``quoteattr``, so the result is well-formed XML and safe to embed in an HTML page.
"""

from __future__ import annotations

from rules.han.board import board_data
from rules.svg import svg_element as _el
from rules.text import in_drawing_language, tr, translating

BOARD_WIDTH, BOARD_HEIGHT = 1000, 700  # the map files' canvas
PANEL_X, PANEL_WIDTH = 1010, 360
WIDTH, HEIGHT = PANEL_X + PANEL_WIDTH, BOARD_HEIGHT

#: one colour per seat, 0..4 (Han has at most 5 players); text colour drawn on top of it
SEAT_COLOURS = ("#1f63c6", "#d12c2c", "#2a2a2a", "#f5f5f5", "#8a3ab9")
SEAT_TEXT = ("#ffffff", "#ffffff", "#ffffff", "#111111", "#ffffff")

#: a card colour, full strength (display cards, hands) and as a light province tint
CARD_COLOURS = {"violet": "#8e6cc4", "yellow": "#e3bf1e", "orange": "#ec8a2c",
                "green": "#4c9f47", "red": "#d6473b"}
PROVINCE_TINTS = {"violet": "#e6dcf4", "yellow": "#fbf1c6", "orange": "#fbdfc2",
                  "green": "#d9eed4", "red": "#f9d4cf"}
UNKNOWN_COLOUR = "#cccccc"

VARIANT_NAMES = {"border-disputes": tr("fortifications"), "ways-of-diplomacy": tr("market places")}
#: the turn line's phase (the view's id is an English word: issue 41)
PHASE_NAMES = {"placing": tr("placing"), "drawing": tr("drawing cards")}
#: why the game ended, by the engine's reason id (flow.end_game; rulings H11 and the
#: depleted pile): English ids a German reader should not see (issue 41)
END_REASON_NAMES = {"pile_depleted": tr("a card pile ran out"),
                    "no_placement": tr("no player can place"), "ended": tr("ended")}


def _points(points) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in points)


def seat_colour(seat) -> str:
    return SEAT_COLOURS[seat] if isinstance(seat, int) and 0 <= seat < len(SEAT_COLOURS) \
        else UNKNOWN_COLOUR


def _seat_text(seat) -> str:
    return SEAT_TEXT[seat] if isinstance(seat, int) and 0 <= seat < len(SEAT_TEXT) else "#111111"


def render_view_svg(view: dict, translate=None) -> str:
    """The SVG of ``view`` (a Han view, see rules/han/README.md); ``translate`` puts its
    labels in another language (rules/text.py)."""
    with translating(translate):
        return _render(view)


def _render(view: dict) -> str:
    data = board_data(view["map"])
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'class="han-board">',
        _el("rect", width=WIDTH, height=HEIGHT, fill="#f4efe2"),
    ]
    out += _provinces(data, view)
    out += _roads(data)
    out += _spaces(data, view)
    out += _province_marks(data, view)
    out += _panel(data, view)
    out.append("</svg>")
    return "\n".join(out)


# -- the board ------------------------------------------------------------------------------
def _provinces(data: dict, view: dict) -> list[str]:
    return [
        _el("polygon", class_="province", data_province=p["id"], points=_points(p["polygon"]),
            fill=PROVINCE_TINTS.get(p["color"], UNKNOWN_COLOUR), stroke="#6b5a44",
            stroke_width=2.5, stroke_linejoin="round")
        for p in data["provinces"]
    ]


def _roads(data: dict) -> list[str]:
    at = {s["id"]: s["at"] for s in data["spaces"]}
    return [
        _el("line", class_="road", x1=at[a][0], y1=at[a][1], x2=at[b][0], y2=at[b][1],
            stroke="#a57a4f", stroke_width=4, stroke_linecap="round")
        for a, b in data["roads"]
    ]


def _house_shape(x: float, y: float) -> list[tuple[float, float]]:
    return [(x, y - 11), (x + 10, y - 3), (x + 10, y + 9), (x - 10, y + 9), (x - 10, y - 3)]


def _spaces(data: dict, view: dict) -> list[str]:
    """One circle per house space (ports ringed blue with an anchor, border spaces dashed
    with a "B"), and the piece on it, if any, in its seat's colour."""
    occupants = view["board"]["spaces"]
    out: list[str] = []
    for space in data["spaces"]:
        x, y = space["at"]
        sid = space["id"]
        border = len(space["provinces"]) > 1
        port = bool(space.get("port"))
        kind = "border" if border else "port" if port else "plain"
        out.append(_el(
            "circle", class_=f"space {kind}", data_space=sid, cx=x, cy=y, r=13,
            fill="#dcecff" if port else "#ffffff",
            stroke="#1d5fa6" if port else "#5a3d7a" if border else "#333333",
            stroke_width=3 if port or border else 1.5,
            stroke_dasharray="4 2" if border else None,
        ))
        piece = occupants.get(sid)
        if piece is None:
            label = "\u2693" if port else "B" if border else None
            if label:
                out.append(_el("text", label, x=x, y=y + 4.5, font_size=12, text_anchor="middle",
                               fill="#1d5fa6" if port else "#5a3d7a"))
            continue
        seat = piece.get("seat")
        fill, stroke = seat_colour(seat), "#111111"
        if piece.get("kind") == "market_place":
            out.append(_el("rect", class_="market_place", data_space=sid, data_seat=seat,
                           x=x - 11, y=y - 11, width=22, height=22, rx=4, fill=fill,
                           stroke=stroke, stroke_width=2))
            out.append(_el("text", "M", x=x, y=y + 5, font_size=13, font_weight="bold",
                           text_anchor="middle", fill=_seat_text(seat)))
            continue
        if piece.get("kind") == "fortification":
            out.append(_el("rect", class_="fortification", data_space=sid, data_seat=seat,
                           x=x - 15, y=y - 15, width=30, height=30, fill="none",
                           stroke="#4a4a4a", stroke_width=4, stroke_dasharray="6 3"))
        out.append(_el("polygon", class_="house", data_space=sid, data_seat=seat,
                       points=_points(_house_shape(x, y)), fill=fill, stroke=stroke,
                       stroke_width=1.5, stroke_linejoin="round"))
    return out


def _province_marks(data: dict, view: dict) -> list[str]:
    """At each province's centre: its name, a gold disk once scored, and the emissaries
    on its dragon space as one small square per seat holding the count (``n+m`` when m
    of them came with market places)."""
    board = view["board"]
    scored = set(board.get("scored", []))
    out: list[str] = []
    for province in data["provinces"]:
        pid = province["id"]
        x, y = province["center"]
        name = in_drawing_language(province["name"])
        # The white halo is a second text under the name, not paint-order="stroke" on it:
        # CairoSVG (board.png) ignores paint-order and drew the stroke over the letters,
        # white blobs (issue 41); two texts look the same in every renderer.
        label = {"x": x, "y": y - 20, "font_size": 14, "font_weight": "bold",
                 "text_anchor": "middle"}
        out.append(_el("text", name, class_="province-halo", aria_hidden="true", fill="#ffffff",
                       stroke="#ffffff", stroke_width=3, stroke_linejoin="round", **label))
        out.append(_el("text", name, class_="province-name", fill="#2d2418", **label))
        if pid in scored:
            disk_x = x + len(name) * 4.6 + 14
            out.append(_el("circle", class_="scored", data_province=pid, cx=disk_x, cy=y - 25,
                           r=9, fill="#e0b020", stroke="#7a5a00", stroke_width=2))
            out.append(_el("text", "\u2713", x=disk_x, y=y - 21, font_size=11,
                           text_anchor="middle", fill="#3d2d00"))
        normal = board["emissaries"].get(pid, [])
        market = board.get("market_emissaries", {}).get(pid, [])
        stacks = []
        for seat, count in enumerate(normal):
            extra = market[seat] if seat < len(market) else 0
            if count + extra:
                stacks.append((seat, f"{count}+{extra}" if extra else str(count)))
        widths = [10 + 7 * len(label) for _seat, label in stacks]
        left = x - (sum(widths) + 3 * max(len(stacks) - 1, 0)) / 2
        for (seat, label), width in zip(stacks, widths, strict=True):
            out.append(_el("rect", class_="emissaries", data_province=pid, data_seat=seat,
                           x=round(left, 1), y=y - 9, width=width, height=18, rx=3,
                           fill=seat_colour(seat), stroke="#111111", stroke_width=1))
            out.append(_el("text", label, x=round(left + width / 2, 1), y=y + 4.5,
                           font_size=12, font_weight="bold", text_anchor="middle",
                           fill=_seat_text(seat)))
            left += width + 3
    return out


# -- the side panel -------------------------------------------------------------------------
class _Lines:
    """Text lines going down the side panel."""

    def __init__(self, x: float, y: float) -> None:
        self.x, self.y, self.out = x, y, []

    def text(self, content: str, *, size: int = 13, bold: bool = False, gap: int = 0,
             x_offset: float = 0, **attrs) -> None:
        self.y += gap
        self.out.append(_el("text", content, x=self.x + x_offset, y=self.y, font_size=size,
                            font_weight="bold" if bold else None, fill="#222222", **attrs))
        self.y += size + 6

    def cards(self, label: str, cards: list, *, class_: str, x_offset: float = 0) -> None:
        """A row of small card swatches (colour names are the Han cards)."""
        x = self.x + x_offset
        label = in_drawing_language(label)  # its width places the cards
        self.out.append(_el("text", label, x=x, y=self.y, font_size=13, fill="#222222"))
        left = x + 8 + 7.5 * len(label)
        for card in cards:
            self.out.append(_el("rect", class_=class_, data_card=card, x=round(left, 1),
                                y=self.y - 13, width=16, height=20, rx=2,
                                fill=CARD_COLOURS.get(card, UNKNOWN_COLOUR), stroke="#333333"))
            left += 20
        if not cards:
            self.out.append(_el("text", tr("none"), x=round(left, 1), y=self.y, font_size=13,
                                fill="#666666"))
        self.y += 26


def _panel(data: dict, view: dict) -> list[str]:
    lines = _Lines(PANEL_X + 10, 28)
    out = [_el("rect", x=PANEL_X, y=0, width=PANEL_WIDTH, height=HEIGHT, fill="#fffdf7",
               stroke="#c9bfa8")]
    variant = VARIANT_NAMES.get(view["map"], tr("markers")) if view.get("variant") \
        else tr("no variant")
    lines.text(tr("Han: {map}", map=in_drawing_language(data["name"])), size=17, bold=True)
    lines.text(tr("{players} players, {variant}", players=view["players"],
                  variant=in_drawing_language(variant)), size=12)
    if view.get("game_over"):
        reason = view.get("end_reason") or "ended"
        reason = in_drawing_language(END_REASON_NAMES.get(reason, reason))
        lines.text(tr("Game over ({reason})", reason=reason),
                   bold=True, gap=4)
    else:
        phase = in_drawing_language(PHASE_NAMES.get(view["phase"], view["phase"]))
        lines.text(tr("Turn: seat {seat} ({phase})", seat=view["turn"], phase=phase),
                   bold=True, gap=4, class_="turn")
    lines.text(tr("Emperor: seat {seat}, pile depletions: {depletions}", seat=view["emperor"],
                  depletions=view.get("depletions", 0)), size=12)
    if view.get("final_round"):
        lines.text(tr("Final round: ends with seat {seat}", seat=view.get("last_seat")),
                   size=12)
    viewer = view.get("seat")
    lines.text(tr("Spectator view") if viewer is None else tr("View of seat {seat}", seat=viewer),
               size=12)

    lines.y += 6
    lines.cards(tr("Display:"), list(view.get("display", [])), class_="display-card")
    discard = view.get("discard", [])
    lines.text(tr("Pile: {pile}, discard pile: {discard} (card counts)",
                  pile=view["pile_size"], discard=len(discard)))
    if "hand" in view:  # the viewer's own hand, which the view shows only to that seat
        lines.cards(tr("Hand of seat {seat}:", seat=viewer), list(view["hand"]),
                    class_="own-hand-card")

    lines.text(tr("Players"), size=14, bold=True, gap=8)
    scores = view.get("scores", [])
    hand_sizes = view.get("hand_sizes", [])
    supplies = view.get("supply", [])
    hands = view.get("hands")  # every hand, only in a view of an ended game
    result = view.get("result") or {}
    for seat in range(view["players"]):
        top = lines.y - 13
        out.append(_el("rect", class_="legend", data_seat=seat, x=lines.x, y=top, width=18,
                       height=18, rx=3, fill=seat_colour(seat), stroke="#111111"))
        score = scores[seat] if seat < len(scores) else 0
        final = result.get("scores")
        score_text = tr("seat {seat}: score {score} (rank {rank})", seat=seat,
                        score=final[seat], rank=result["ranks"][seat]) if final \
            else tr("seat {seat}: score {score}", seat=seat, score=score)
        lines.text(score_text, bold=True, x_offset=26)
        size = hand_sizes[seat] if seat < len(hand_sizes) else 0
        supply = supplies[seat] if seat < len(supplies) else {}
        lines.text(tr("hand {hand} | houses {houses} | emissaries {emissaries} | markers "
                      "{markers}", hand=size, houses=supply.get("houses", 0),
                      emissaries=supply.get("emissaries", 0), markers=supply.get("markers", 0)),
                   size=11, x_offset=26)
        if hands is not None and seat < len(hands):
            lines.cards(tr("hand:"), list(hands[seat]), class_="ended-hand-card", x_offset=26)
    out += lines.out
    out += _legend(PANEL_X + 10, HEIGHT - 56)
    return out


def _legend(x: float, y: float) -> list[str]:
    out = [_el("text", tr("Legend:"), x=x, y=y, font_size=11, font_weight="bold", fill="#222222")]
    out.append(_el("circle", cx=x + 62, cy=y - 4, r=7, fill="#dcecff", stroke="#1d5fa6",
                   stroke_width=2))
    out.append(_el("text", tr("port"), x=x + 73, y=y, font_size=11, fill="#222222"))
    out.append(_el("circle", cx=x + 115, cy=y - 4, r=7, fill="#ffffff", stroke="#5a3d7a",
                   stroke_width=2, stroke_dasharray="3 2"))
    out.append(_el("text", tr("border space"), x=x + 126, y=y, font_size=11, fill="#222222"))
    out.append(_el("circle", cx=x + 218, cy=y - 4, r=7, fill="#e0b020", stroke="#7a5a00"))
    out.append(_el("text", tr("scored"), x=x + 229, y=y, font_size=11, fill="#222222"))
    y += 20
    out.append(_el("rect", x=x + 55, y=y - 11, width=14, height=14, fill="none",
                   stroke="#4a4a4a", stroke_width=3, stroke_dasharray="4 2"))
    out.append(_el("text", tr("fortified"), x=x + 73, y=y, font_size=11, fill="#222222"))
    out.append(_el("rect", x=x + 130, y=y - 11, width=14, height=14, rx=3, fill="#999999"))
    out.append(_el("text", tr("M market place"), x=x + 148, y=y, font_size=11, fill="#222222"))
    out.append(_el("text", tr("n+m: emissaries"), x=x + 245, y=y, font_size=11, fill="#222222"))
    out.append(_el("text", tr("(m from markets)"), x=x + 245, y=y + 14, font_size=10,
                   fill="#444444"))
    return out
