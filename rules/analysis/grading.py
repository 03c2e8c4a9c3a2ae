"""From losses to words and figures: the label of a decision, the accuracy of a seat and
its key moments. The labels' thresholds are per game, in points, because a point means
more in a game of small scores; accuracy reads the result lost (the search's reward, 0 to
1), the same in every game (docs/analysis.md has the table and how they were chosen)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

LABELS = ("inaccuracy", "mistake", "blunder")


#: a seat's accuracy is 100 * exp(-mean result lost / ACCURACY_SCALE): 37 at a fifth of the
#: reward's range given away per decision, about 87 at the medium bot's 0.028 (Han)
ACCURACY_SCALE = 0.2


@dataclass(frozen=True)
class Thresholds:
    #: smallest loss (expected points) labelled an inaccuracy, a mistake, a blunder
    inaccuracy: float
    mistake: float
    blunder: float

    def to_json(self) -> dict:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake,
                "blunder": self.blunder, "accuracy_scale": ACCURACY_SCALE}


THRESHOLDS: dict[str, Thresholds] = {
    "han": Thresholds(inaccuracy=1.5, mistake=3.0, blunder=6.0),
    "hansa": Thresholds(inaccuracy=5.0, mistake=10.0, blunder=20.0),
}
#: a game without its own line (a plugin game): scores of a few points
DEFAULT_THRESHOLDS = Thresholds(inaccuracy=0.5, mistake=1.0, blunder=2.0)

#: key moments kept per seat: its largest losses and its largest swings
KEY_LOSSES = 3
KEY_SWINGS = 2


def thresholds_for(game: str) -> Thresholds:
    return THRESHOLDS.get(game, DEFAULT_THRESHOLDS)


def label(loss: float, thresholds: Thresholds) -> str | None:
    """``blunder``, ``mistake``, ``inaccuracy`` or None (a good move)."""
    for name in reversed(LABELS):
        if loss >= getattr(thresholds, name):
            return name
    return None


def decision_accuracy(result_loss: float) -> float:
    return 100.0 * math.exp(-max(result_loss, 0.0) / ACCURACY_SCALE)


def match_summary(decisions: Sequence[dict], players: int,
                  thresholds: Thresholds) -> list[dict]:
    """Every seat's ``seat_summary`` from a match's analysed decisions (each with its
    ``"seat"``), their accuracies on one footing: each seat's total result lost divided by
    the decisions with a choice of the match's average seat."""
    by_seat = [[d for d in decisions if d["seat"] == seat] for seat in range(players)]
    choices = sum(1 for d in decisions if d["choices"] > 1)
    per_seat = choices / players if players else 0.0
    return [seat_summary(seat, rows, thresholds, per_seat)
            for seat, rows in enumerate(by_seat)]


def seat_summary(seat: int, decisions: Sequence[dict], thresholds: Thresholds,
                 decisions_per_seat: float | None = None) -> dict:
    """One seat's figures from its analysed decisions (``{"ply", "loss", "result_loss",
    "value_best", "choices"}`` each, in ply order): accuracy (``decision_accuracy`` of its
    total result lost over ``decisions_per_seat``, the match's decisions with a choice per
    seat, by default its own: what its moves cost its chance to win, so a loose move in a
    decided position costs nothing, and within a match the seat that gave away more of a
    win in all is the less accurate, whoever had more decisions; None with no choice),
    the result lost in all, mean points and mean result lost per decision with a choice,
    counts per label (points) and key moments (largest losses that earned a label,
    largest swings of its evaluation between two of its decisions)."""
    chosen = [d for d in decisions if d["choices"] > 1]
    losses = [d["loss"] for d in chosen]
    result_losses = [d["result_loss"] for d in chosen]
    counts = {name: 0 for name in LABELS}
    for loss in losses:
        if (name := label(loss, thresholds)) is not None:
            counts[name] += 1
    worst = sorted((d for d in chosen if label(d["loss"], thresholds)),
                   key=lambda d: (-d["loss"], d["ply"]))[:KEY_LOSSES]
    moments = [{"ply": d["ply"], "kind": "loss", "points": round(d["loss"], 2),
                "label": label(d["loss"], thresholds)} for d in worst]
    swings = []
    for before, after in zip(decisions, decisions[1:], strict=False):
        change = after["value_best"] - before["value_best"]
        if abs(change) >= thresholds.mistake:
            swings.append({"ply": after["ply"], "kind": "swing", "points": round(change, 2),
                           "label": None})
    moments += sorted(swings, key=lambda m: (-abs(m["points"]), m["ply"]))[:KEY_SWINGS]
    result_lost = sum(result_losses)
    per = decisions_per_seat or len(chosen)
    return {
        "seat": seat,
        "decisions": len(decisions),
        "choices": len(chosen),
        "accuracy": round(decision_accuracy(result_lost / per), 1) if chosen else None,
        "mean_loss": round(sum(losses) / len(losses), 3) if losses else 0.0,
        "mean_result_loss": round(result_lost / len(chosen), 4) if chosen else 0.0,
        "result_lost": round(result_lost, 4),
        "labels": counts,
        "key_moments": sorted(moments, key=lambda m: m["ply"]),
    }
