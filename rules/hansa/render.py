"""Draw a Queen of Hansa view as an SVG picture: the prosperity track, the four city rows
and every seat's Kontor.

For admins and debugging (the replay page in Django admin). The picture is built from the
``view`` alone, so it shows exactly what that seat (or a spectator) may see and nothing
hidden; ``data`` gives only public table facts (the city colours and the track's labels).
Every text and attribute value goes through ``escape`` / ``quoteattr``, so the result is
well-formed XML and safe to embed in an HTML page.
"""

from __future__ import annotations

import json

from rules.hansa.data import HansaData
from rules.svg import svg_element as _el
from rules.text import in_drawing_language, tr, translating

WIDTH = 1320
ROWS_X, ROWS_Y = 10, 178
CITY_LABEL_WIDTH = 96
CARD_WIDTH, CARD_HEIGHT, CARD_GAP = 118, 84, 8
ROW_HEIGHT = CARD_HEIGHT + 14
KONTOR_X = ROWS_X + CITY_LABEL_WIDTH + 5 * (CARD_WIDTH + CARD_GAP) + 16
CHIP_WIDTH, CHIP_HEIGHT = 46, 32

#: luxury-piece / city colours, full strength and as a light tint for cards
COLOURS = {"red": "#c62828", "blue": "#1e5bb8", "yellow": "#e3b505", "black": "#262626"}
TINTS = {"red": "#f7d6d6", "blue": "#d5e1f5", "yellow": "#fbf0c4", "black": "#dcdcdc"}
ON_COLOUR = {"yellow": "#222222"}  # text drawn on a full-strength colour; white otherwise
UNKNOWN_COLOUR, UNKNOWN_TINT = "#888888", "#eeeeee"
#: one colour per seat (0..3; Hansa has at most 4 players), the bar at each Kontor's left
#: edge; apart from the luxury colours so a seat is never read as a piece
SEAT_COLOURS = ("#7b3fa0", "#00897b", "#d2691e", "#8d6e63")
KIND_SHORT = {"person": tr("person"), "ship": tr("ship"), "building": tr("building")}
#: what the header calls the phases and the bag's colours: the view's ids are English words
#: a German reader should not see ("phase over", "red 3": issue 41)
PHASE_NAMES = {"keep": tr("keeping cards"), "turns": tr("turns"),
               "final_card": tr("final card"), "store": tr("storing pieces"),
               "choose_start": tr("choosing the start player"), "over": tr("game over")}
COLOUR_NAMES = {"red": tr("red"), "blue": tr("blue"), "yellow": tr("yellow"),
                "black": tr("black")}

#: the drawing's short labels, explained under it (HansaEngine.drawing_legend); the card
#: labels and person letters read the same in every language
LEGEND = (
    ("P3, S2, B1", tr("a person, ship or building card of the Kontor with its trade power")),
    ("A-H", tr("top right of a card: its notable-person type (sets score at the end)")),
    (tr("lux"), tr("a luxury card")),
    (tr("coloured discs"),
     tr("luxury pieces (red, blue, yellow, black) and how many a seat holds")),
    (tr("2nd x2, 3rd x1"), tr("prosperity track: profit multipliers of second and third place")),
    (tr("> Kontor of ..."), tr("the seat owes a decision now")),
)


def _text(x, y, content, *, size=12, bold=False, fill="#222222", **attrs) -> str:
    return _el("text", content, x=round(x, 1), y=round(y, 1), font_size=size,
               font_weight="bold" if bold else None, fill=fill, **attrs)


class _Palette:
    """City name -> colour name, from the public table data."""

    def __init__(self, data: HansaData) -> None:
        self.city_colour = dict(zip(data.cities, data.colours, strict=True))

    def full(self, city_or_colour: str) -> str:
        colour = self.city_colour.get(city_or_colour, city_or_colour)
        return COLOURS.get(colour, UNKNOWN_COLOUR)

    def tint(self, city: str) -> str:
        return TINTS.get(self.city_colour.get(city, city), UNKNOWN_TINT)

    def on(self, city_or_colour: str) -> str:
        return ON_COLOUR.get(self.city_colour.get(city_or_colour, city_or_colour), "#ffffff")


def render_view_svg(view: dict, data: HansaData, translate=None) -> str:
    """The SVG of ``view`` (a Hansa view, see rules/hansa/README.md); ``translate`` puts
    its labels in another language (rules/text.py)."""
    with translating(translate):
        return _render(view, data)


def _render(view: dict, data: HansaData) -> str:
    palette = _Palette(data)
    body: list[str] = []
    body += _header(view)
    body += _track(view, data, palette)
    rows_bottom = _rows(view, palette, body)
    kontor_bottom = _kontors(view, palette, body)
    height = int(max(rows_bottom, kontor_bottom) + 12)
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif" '
        f'class="hansa-board">',
        _el("rect", width=WIDTH, height=height, fill="#f3efe6"),
        *body,
        "</svg>",
    ])


# -- the header: round, phase, who acts, decks and bag --------------------------------------
def _header(view: dict) -> list[str]:
    title = in_drawing_language(tr("The Queen of Hansa"))
    out = [_text(12, 26, title, size=18, bold=True)]
    status = tr("{players} players, round {round} of {rounds}, phase {phase}",
                players=view["players"], round=view["round"], rounds=view["rounds"],
                phase=in_drawing_language(PHASE_NAMES.get(view["phase"], view["phase"])))
    # after the title, however long it is in the drawing's language ("Die Königin der
    # Hanse" ran into a subtitle at a fixed x: issue 41); 18 px bold is under 12 px a letter
    out.append(_text(max(230, 12 + len(title) * 12 + 16), 26, status, size=14))
    if view.get("over"):
        line = in_drawing_language(tr("Game over"))
    elif view.get("phase") == "turns":
        line = in_drawing_language(tr(
            "Turn: seat {seat} (turns taken this round: {taken}, {per_player} per player); "
            "start player: seat {start}", seat=view.get("current_seat"),
            taken=view.get("turns_taken"), per_player=view.get("turns_per_player"),
            start=view.get("start_player")))
    elif view.get("chooser") is not None:
        line = in_drawing_language(tr("Seat {seat} names the next start player",
                                      seat=view["chooser"]))
    else:
        seats = ", ".join(in_drawing_language(tr("seat {seat}", seat=s))
                          for s in view.get("to_act", []))
        line = in_drawing_language(tr("To act: {seats}", seats=seats or
                                      in_drawing_language(tr("nobody"))))
    simultaneous = view.get("simultaneous")
    if simultaneous:
        line += in_drawing_language(tr(
            " | {choice}: chosen {chosen}, waiting for {waiting}",
            choice=simultaneous["choice"], chosen=simultaneous["chosen"],
            waiting=simultaneous["waiting_for"]))
    out.append(_text(12, 50, line, size=13, bold=True, class_="turn"))
    decks = view.get("decks", {})
    bag = view.get("bag", {})
    by_colour = ", ".join(f"{in_drawing_language(COLOUR_NAMES.get(colour, colour))} {n}"
                          for colour, n in bag.get("by_colour", {}).items())
    viewer = view.get("viewer")
    who = tr("spectator view") if viewer is None else tr("view of seat {seat}", seat=viewer)
    out.append(_text(12, 72, tr("Decks: normal {normal}, luxury {luxury} | bag {bag}: "
                                "{by_colour} | {who}", normal=decks.get("normal", 0),
                                luxury=decks.get("luxury", 0), bag=bag.get("count", 0),
                                by_colour=by_colour, who=in_drawing_language(who)), size=12))
    if "my_choice" in view:  # the viewer's own pending choice, shown only to that seat
        out.append(_text(760, 72, tr("my choice: {choice}",
                                     choice=json.dumps(view["my_choice"], sort_keys=True)),
                         size=11, class_="my-choice"))
    return out


# -- the prosperity track ---------------------------------------------------------------------
def _track(view: dict, data: HansaData, palette: _Palette) -> list[str]:
    """One cell per track space (label, 1st-place profit, 2nd / 3rd multipliers) and a
    marker in the city's colour on the space its city has reached."""
    left, top, cell_w, cell_h = 110, 84, 76, 74
    length = view.get("prosperity_track_length", len(data.track))
    out = [_text(12, top + 26, tr("Prosperity"), size=13, bold=True)]
    change = view.get("next_prosperity_change")
    changes = view.get("prosperity_changes_this_round", 0)
    out.append(_text(12, top + 44, tr("changes: {changes}", changes=changes), size=11))
    out.append(_text(12, top + 60, tr("next: {change}",
                                          change=change if change is not None else "-"),
                     size=11))
    for index in range(length):
        x = left + index * cell_w
        out.append(_el("rect", class_="track-space", x=x, y=top, width=cell_w - 4, height=cell_h,
                       rx=4, fill="#fffaf0", stroke="#8a7a5a"))
        if index < len(data.track):
            space = data.track[index]
            out.append(_text(x + 6, top + 17, space.label, size=15, bold=True))
            out.append(_text(x + 6, top + 30, tr("2nd x{multiplier}",
                                                multiplier=space.second_multiplier), size=9,
                             fill="#555555"))
            out.append(_text(x + 6, top + 41, tr("3rd x{multiplier}",
                                                multiplier=space.third_multiplier), size=9,
                             fill="#555555"))
    at_index: dict[int, list[str]] = {}
    for city, spot in view.get("prosperity", {}).items():
        at_index.setdefault(spot["index"], []).append(city)
    for index, cities in at_index.items():
        x = left + index * cell_w
        for k, city in enumerate(cities):
            cx, cy = x + 12 + (k % 4) * 16, top + 60
            out.append(_el("circle", class_="prosperity-marker", data_city=city,
                           data_index=index, cx=cx, cy=cy, r=7, fill=palette.full(city),
                           stroke="#ffffff", stroke_width=1.5))
    return out


# -- the four city rows --------------------------------------------------------------------
def _card(out: list[str], x: float, y: float, card: dict, piece, palette: _Palette,
          class_: str) -> None:
    city = card.get("city", "")
    out.append(_el("rect", class_=class_, data_card=card.get("id"), x=x, y=y, width=CARD_WIDTH,
                   height=CARD_HEIGHT, rx=6, fill=palette.tint(city), stroke=palette.full(city),
                   stroke_width=3))
    out.append(_text(x + 7, y + 15, card.get("id", ""), size=10, fill="#444444"))
    # below the person letter (top right, 20 px down to y + 26) and narrow enough for the
    # card: "Persönlichkeit" at 12 px ran into the letter and over the edge (issue 41)
    out.append(_text(x + 7, y + 40, KIND_SHORT.get(card.get("kind"), card.get("kind", "")),
                     size=11, bold=True))
    out.append(_text(x + 7, y + 53, tr("trade power {power}", power=card.get("trade_power")),
                     size=10))
    if card.get("person"):
        out.append(_text(x + CARD_WIDTH - 10, y + 26, card["person"], size=20, bold=True,
                         text_anchor="end", fill="#5b3a1a"))
    if card.get("luxury"):
        out.append(_text(x + 7, y + 72, tr("luxury"), size=10, fill="#6b4e00"))
        cx, cy = x + CARD_WIDTH - 20, y + CARD_HEIGHT - 20
        if piece:
            out.append(_el("circle", class_="luxury-piece", data_card=card.get("id"),
                           data_colour=piece, cx=cx, cy=cy, r=11, fill=palette.full(piece),
                           stroke="#ffffff", stroke_width=2))
        else:
            out.append(_el("circle", cx=cx, cy=cy, r=11, fill="none", stroke="#999999",
                           stroke_dasharray="3 2"))


def _rows(view: dict, palette: _Palette, out: list[str]) -> float:
    spaces = view.get("spaces_per_city", 5)
    harbour = view.get("harbour_spaces", 2)
    y = ROWS_Y
    for city, row in view.get("rows", {}).items():
        out.append(_el("rect", class_="city", data_city=city, x=ROWS_X, y=y,
                       width=CITY_LABEL_WIDTH - 8, height=CARD_HEIGHT, rx=6,
                       fill=palette.full(city)))
        out.append(_text(ROWS_X + 8, y + CARD_HEIGHT / 2 + 5, city, size=13, bold=True,
                         fill=palette.on(city)))
        for slot in range(spaces):
            x = ROWS_X + CITY_LABEL_WIDTH + slot * (CARD_WIDTH + CARD_GAP)
            out.append(_el("rect", x=x - 3, y=y - 3, width=CARD_WIDTH + 6, height=CARD_HEIGHT + 6,
                           rx=7, fill="#cfe3f0" if slot < harbour else "#e6dfd0",
                           stroke="none"))
            if slot < len(row):
                _card(out, x, y, row[slot]["card"], row[slot].get("piece"), palette, "row-card")
        y += ROW_HEIGHT
    out.append(_text(ROWS_X, y + 4, tr("blue slots: the harbour (leftmost {harbour})",
                                        harbour=harbour), size=11,
                     fill="#555555"))
    return y + 10


# -- the Kontors -----------------------------------------------------------------------------
def _chip(out: list[str], x: float, y: float, card: dict, palette: _Palette, class_: str) -> None:
    city = card.get("city", "")
    out.append(_el("rect", class_=class_, data_card=card.get("id"), x=x, y=y, width=CHIP_WIDTH,
                   height=CHIP_HEIGHT, rx=3, fill=palette.tint(city), stroke=palette.full(city),
                   stroke_width=2))
    kind = {"person": "P", "ship": "S", "building": "B"}.get(card.get("kind"), "?")
    out.append(_text(x + 4, y + 13, f"{kind}{card.get('trade_power')}", size=11, bold=True))
    if card.get("person"):
        out.append(_text(x + CHIP_WIDTH - 4, y + 13, card["person"], size=11, bold=True,
                         text_anchor="end", fill="#5b3a1a"))
    if card.get("luxury"):
        out.append(_text(x + 4, y + 27, tr("lux"), size=9, fill="#6b4e00"))


def _chip_line(out: list[str], x: float, y: float, label: str, cards: list[dict],
               palette: _Palette, class_: str) -> float:
    out.append(_text(x, y + 20, label, size=11))
    left = x + 84
    for card in cards:
        if left + CHIP_WIDTH > WIDTH - 6:  # wrap onto a new line
            left, y = x + 84, y + CHIP_HEIGHT + 4
        _chip(out, left, y, card, palette, class_)
        left += CHIP_WIDTH + 4
    if not cards:
        out.append(_text(left, y + 20, tr("none"), size=11, fill="#666666"))
    return y + CHIP_HEIGHT + 6


def _pieces(out: list[str], x: float, y: float, label: str, pieces: dict, palette: _Palette,
            class_: str, seat: int) -> float:
    out.append(_text(x, y + 4, label, size=11))
    left = x + 84
    for colour, count in pieces.items():
        out.append(_el("circle", class_=class_, data_seat=seat, data_colour=colour,
                       data_count=count, cx=left + 8, cy=y, r=8,
                       fill=palette.full(colour), stroke="#ffffff", stroke_width=1.5,
                       opacity=1 if count else 0.3))
        out.append(_text(left + 20, y + 4, count, size=12, bold=bool(count)))
        left += 46
    return y + 22


def _kontors(view: dict, palette: _Palette, out: list[str]) -> float:
    x, y = KONTOR_X, ROWS_Y - 4
    result = view.get("result") or {}
    to_act = set(view.get("to_act", []))
    for seat_view in view.get("seats", []):
        seat = seat_view["seat"]
        top = y
        heading = in_drawing_language(tr("Kontor of seat {seat}: profit {profit}", seat=seat,
                                         profit=seat_view.get("profit", 0)))
        if seat in to_act:
            heading = "> " + heading
        if result.get("ranks"):
            heading += in_drawing_language(tr(" (rank {rank})", rank=result["ranks"][seat]))
        out.append(_text(x + 6, y + 16, heading, size=13, bold=True, class_="kontor"))
        out.append(_text(x + 6, y + 32, tr("hand {hand} | face down {face_down} | ships {ships}",
                                           hand=seat_view.get("hand_size", 0),
                                           face_down=seat_view.get("face_down_count", 0),
                                           ships=seat_view.get("face_up_ships", 0)), size=11))
        y += 40
        by_city: dict[str, list[dict]] = {}
        for card in seat_view.get("face_up", []):
            by_city.setdefault(card.get("city", ""), []).append(card)
        for city, cards in by_city.items():
            y = _chip_line(out, x + 6, y, city, cards, palette, "face-up-card")
        if not by_city:
            out.append(_text(x + 6, y + 12, tr("no face-up cards"), size=11, fill="#666666"))
            y += 20
        # only in the view of their own seat, or of everyone once the game is over
        if "hand" in seat_view:
            y = _chip_line(out, x + 6, y, tr("hand"), seat_view["hand"], palette, "hand-card")
        if "face_down" in seat_view:
            y = _chip_line(out, x + 6, y, tr("face down"), seat_view["face_down"], palette,
                           "face-down-card")
        y = _pieces(out, x + 6, y + 10, tr("pieces"), seat_view.get("pieces", {}), palette,
                    "kontor-piece", seat)
        y = _pieces(out, x + 6, y, tr("stored"), seat_view.get("stored", {}), palette,
                    "stored-piece", seat)
        out.insert(0, _el("rect", x=x, y=top, width=WIDTH - x - 6, height=y - top - 4, rx=6,
                          fill="#fffdf7", stroke="#b8ad94"))
        out.insert(1, _el("rect", class_="kontor-seat", data_seat=seat, x=x, y=top + 6,
                          width=4, height=y - top - 16,
                          fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)]))
        y += 6
    return y
