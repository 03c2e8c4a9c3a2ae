"""Reading an analysis: what the endpoints, GraphQL, the records export and the admin show.

An analysis is of a finished match (its seed revealed, every hand showable), so each
reader gets the same answer. Only the analysis of today's rules version and budget is
served: after a rules change the match has none until it is requested again.
"""

from __future__ import annotations

from typing import Any

from games.analysis import errors
from games.analysis.budget import current_key
from games.analysis.models import FINAL_STATUSES, Analysis
from games.matches import selectors as match_selectors
from games.matches.models import Match
from infra.timestamps import utc_iso
from rules.analysis import JUDGE_VERSION, thresholds_for


def current_analysis(match: Match) -> Analysis | None:
    """The stored analysis that answers for ``match`` today, or None."""
    return Analysis.objects.filter(match=match, judge_version=JUDGE_VERSION,
                                   **current_key(match)).first()


def analysis_of(match_id: Any) -> dict:
    """The analysis body of match ``match_id`` (``analysis_body``). Raises MatchNotFound,
    NoAnalysis (404) when none was requested under today's rules and budget."""
    match = match_selectors.get_match(match_id)
    analysis = current_analysis(match)
    if analysis is None:
        raise errors.NoAnalysis(details={"match_id": match.pk})
    return analysis_body(analysis, match)


def analysis_progress(match_id: Any) -> dict:
    """``{"status", "done", "total"}`` of match ``match_id``'s analysis, without reading its
    decisions (what a progress push carries). Raises MatchNotFound, NoAnalysis."""
    match = match_selectors.get_match(match_id)
    analysis = current_analysis(match)
    if analysis is None:
        raise errors.NoAnalysis(details={"match_id": match.pk})
    return {"status": analysis.status, "done": analysis.decisions_done,
            "total": analysis.decisions_total}


def analysis_section(match: Match) -> dict | None:
    """The records export's optional ``analysis`` section: the final analysis of today's
    rules and budget without what the record says already, or None when there is none."""
    analysis = current_analysis(match)
    if analysis is None or analysis.status not in FINAL_STATUSES:
        return None
    body = analysis_body(analysis, match)
    return {key: value for key, value in body.items() if key not in ("match_id", "game")}


def is_final(body: dict) -> bool:
    return body["status"] in FINAL_STATUSES


def analysis_body(analysis: Analysis, match: Match) -> dict:
    """``{"match_id", "status", "rules_version", "judge_version", "budget", "progress",
    "cpu_seconds", "thresholds"}``, and once final (done, or stopped at the CPU cap)
    ``"seats"`` (per seat: accuracy, mean loss, labels, key moments) and ``"decisions"``
    (per ply: seat, the move played and the best move found, their values, the loss, the
    label)."""
    total = analysis.decisions_total
    percent = round(100 * analysis.decisions_done / total, 1) if total else 100.0
    body = {
        "match_id": match.pk,
        "game": match.game,
        "status": analysis.status,
        "rules_version": analysis.rules_version,
        "judge_version": analysis.judge_version,
        "budget": {"iterations": analysis.iterations, "samples": analysis.samples},
        "progress": {"done": analysis.decisions_done, "total": total, "percent": percent},
        "cpu_seconds": round(analysis.cpu_seconds, 3),
        "thresholds": thresholds_for(match.game).to_json(),
        "requested_at": utc_iso(analysis.created_at),
        "finished_at": utc_iso(analysis.finished_at),
    }
    if analysis.status in FINAL_STATUSES:
        body["seats"] = analysis.seats
        body["decisions"] = [
            {"ply": row.ply, "seat": row.seat, "played": row.played, "best": row.best,
             "value_played": round(row.value_played, 3), "value_best": round(row.value_best, 3),
             "loss": round(row.loss, 3), "result_played": round(row.result_played, 4),
             "result_best": round(row.result_best, 4), "result_loss": round(row.result_loss, 4),
             "label": row.label or None, "choices": row.choices}
            for row in analysis.decisions.order_by("ply")
        ]
    return body


def evaluation_series(body: dict, players: int) -> list[list[tuple[int, float]]]:
    """Per seat, ``(ply, value_best)`` at each of its decisions: what the admin's graph
    draws (the seat's expected points ahead of the field with its best play)."""
    series: list[list[tuple[int, float]]] = [[] for _ in range(players)]
    for decision in body.get("decisions", []):
        series[decision["seat"]].append((decision["ply"], decision["value_best"]))
    return series
