"""What the replay page shows of a match's analysis (docs/admin.md): the evaluation graph
per seat, and at the ply shown the decision made there against the best move found, with
the board as it would stand after the best move."""

from __future__ import annotations

import json

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.analysis_graph import evaluation_svg
from games.analysis import selectors
from games.analysis.models import FINAL_STATUSES
from games.boards.labels import label_seats
from games.matches.models import Match

#: the words the page shows for a label and for a status that is not final
LABEL_NAMES = {"inaccuracy": gettext_lazy("inaccuracy"), "mistake": gettext_lazy("mistake"),
               "blunder": gettext_lazy("blunder")}
STATUS_NAMES = {"queued": gettext_lazy("queued"), "running": gettext_lazy("running"),
                "failed": gettext_lazy("failed")}


def analysis_context(match: Match, engine, state, ply: int, names: dict) -> dict:
    """Template context for the replay page at ``ply`` (``state``: the state after ``ply``
    moves, shown only for an ended match): ``{"analysis": None}`` when the match has no
    final analysis."""
    analysis = selectors.current_analysis(match)
    if analysis is None or analysis.status not in FINAL_STATUSES:
        status = analysis.status if analysis is not None else None
        return {"analysis": None, "analysis_status": status,
                "analysis_status_text": STATUS_NAMES.get(status, status)}
    body = selectors.analysis_body(analysis, match)
    labels = {row["ply"]: row["label"] for row in body["decisions"] if row["label"]}
    graph = evaluation_svg(selectors.evaluation_series(body, match.players), labels, names,
                           match.ply, ply, seat_colours=engine.seat_colours())
    decision = next((row for row in body["decisions"] if row["ply"] == ply), None)
    best_board = None
    if decision is not None and decision["best"] != decision["played"]:
        after, _events = engine.apply(state, decision["seat"], decision["best"])
        # everything shown, as the replay of an ended match draws it (games/boards/)
        svg = engine.render_svg(engine.full_view(after), translate=_)
        if svg:  # the renderer escapes every text it inserts
            best_board = mark_safe(label_seats(svg, names))  # noqa: S308
    return {
        "analysis": body,
        "analysis_graph": mark_safe(graph),  # noqa: S308 - built with every text escaped
        "decision": decision,
        "decision_name": names.get(decision["seat"]) if decision else None,
        "decision_label": LABEL_NAMES.get(decision["label"]) if decision else None,
        "decision_played": json.dumps(decision["played"], sort_keys=True) if decision else "",
        "decision_best": json.dumps(decision["best"], sort_keys=True) if decision else "",
        "best_board": best_board,
        "accuracies": [(names.get(row["seat"]), row["accuracy"], row["labels"])
                       for row in body["seats"]],
    }
