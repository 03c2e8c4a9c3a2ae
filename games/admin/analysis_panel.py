"""What the replay page shows of a match's analysis (docs/admin.md): the evaluation graph
per seat, and at the ply shown the decision made there against the best move found, with
the board as it would stand after the best move."""

from __future__ import annotations

import json

from django.utils.safestring import mark_safe

from games.admin import glance as admin_glance
from games.admin.analysis_graph import evaluation_svg
from games.analysis import selectors
from games.analysis.models import FINAL_STATUSES
from games.matches.models import Match


def analysis_context(match: Match, engine, state, ply: int, names: dict) -> dict:
    """Template context for the replay page at ``ply`` (``state``: the state after ``ply``
    moves, shown only for an ended match): ``{"analysis": None}`` when the match has no
    final analysis."""
    analysis = selectors.current_analysis(match)
    if analysis is None or analysis.status not in FINAL_STATUSES:
        return {"analysis": None,
                "analysis_status": analysis.status if analysis is not None else None}
    body = selectors.analysis_body(analysis, match)
    labels = {row["ply"]: row["label"] for row in body["decisions"] if row["label"]}
    graph = evaluation_svg(selectors.evaluation_series(body, match.players), labels, names,
                           match.ply, ply)
    decision = next((row for row in body["decisions"] if row["ply"] == ply), None)
    best_board = None
    if decision is not None and decision["best"] != decision["played"]:
        after, _events = engine.apply(state, decision["seat"], decision["best"])
        svg = engine.render_svg(engine.view(after, None))
        if svg:  # the renderer escapes every text it inserts
            best_board = mark_safe(admin_glance.label_seats(svg, names))  # noqa: S308
    return {
        "analysis": body,
        "analysis_graph": mark_safe(graph),  # noqa: S308 - built with every text escaped
        "decision": decision,
        "decision_name": names.get(decision["seat"]) if decision else None,
        "decision_played": json.dumps(decision["played"], sort_keys=True) if decision else "",
        "decision_best": json.dumps(decision["best"], sort_keys=True) if decision else "",
        "best_board": best_board,
        "accuracies": [(names.get(row["seat"]), row["accuracy"], row["labels"])
                       for row in body["seats"]],
    }
