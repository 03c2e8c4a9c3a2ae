"""What a search's rollout is worth to each seat, from the scores it ends with (the game's
final ones, or after the rollout's plies ``engine.estimate_scores``): the bots' reward,
``rewards_from_scores``, and winning alone, ``win_shares``, which the post-game analysis's
judge searches for (rules/analysis/search.py ``JUDGE_REWARD``). Both read who beats whom
the same way, from one pass per search iteration.
"""

from __future__ import annotations

import math
from collections.abc import Callable

#: what a rollout's scores are worth to each seat: ``reward(scores, score_scale)``, each in
#: [0, 1]
Reward = Callable[[list[float], float], list[float]]


def _beaten_and_best(scores: list[float]) -> list[tuple[float, float]]:
    """Per seat (of two or more): the share of the other seats whose score it beats (a tie
    half a win) and the best of their scores, in one pass (once per search iteration).
    Equal points count as a tie: a rollout's scores (after eight plies, an estimate) carry
    no supply, so Han's tie-breaker (ruling H12: pieces left in supply) is not applied."""
    n = len(scores)
    out = []
    for seat, mine in enumerate(scores):
        beaten = 0.0
        best = -math.inf
        for other, score in enumerate(scores):
            if other != seat:
                beaten += 1.0 if mine > score else 0.5 if mine == score else 0.0
                if score > best:
                    best = score
        out.append((beaten / (n - 1), best))
    return out


def win_shares(scores: list[float], score_scale: float = 0.0) -> list[float]:
    """Per seat, in [0, 1]: the share of the other seats it beats, a tie half: winning
    alone, the post-game analysis's reward (``score_scale`` is ignored)."""
    if len(scores) < 2:
        return [1.0] * len(scores)
    return [share for share, _best in _beaten_and_best(scores)]


def rewards_from_scores(scores: list[float], score_scale: float = 10.0) -> list[float]:
    """Per seat, in [0, 1]: half its ``win_shares``, half ``(1 + tanh(margin /
    score_scale)) / 2`` of its margin over the best opponent (the bots' reward)."""
    if len(scores) < 2:
        return [1.0] * len(scores)
    return [0.5 * share + 0.25 * (1.0 + math.tanh((mine - best) / score_scale))
            for mine, (share, best) in zip(scores, _beaten_and_best(scores), strict=True)]
