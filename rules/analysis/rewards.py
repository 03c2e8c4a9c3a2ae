"""What the judge's search is rewarded by: winning alone (judge 7, issue 44).

Accuracy reads the result lost: how much of the chance to win a move gave away. The bots'
reward (``rules.bots.ismcts.rewards_from_scores``) is half the share of the seats beaten
and half a ``tanh`` of the margin over the best of them; that margin half moves the value
of a move that widens a lead already safe, or narrows a deficit already hopeless, neither
of which changes who wins. So the judge searches for winning alone: the share of the other
seats a seat finishes ahead of (a tie half), and the result lost is the expected share of
wins a move gives away. The bots keep their own reward (they play exactly as before).

A win is read as a hard threshold on the scores a rollout ends with, the game's final ones
or, after eight plies, ``engine.estimate_scores``. Not a logistic of the estimated margin:
at the bots' own scale such a logistic *is* their margin half (``(1 + tanh(m / s)) / 2``
equals ``1 / (1 + exp(-2 m / s))``), the very part judge 7 leaves out, and any other scale
would be a free parameter with no measurement of the estimate's error behind it. The
threshold needs none: the search averages it over the hundreds of worlds and random
rollout plies it draws, which is what spreads a win into a probability
(docs/analysis.md, "Judge 7").
"""

from __future__ import annotations


def win_shares(scores: list[float], score_scale: float = 0.0) -> list[float]:
    """Per seat, in [0, 1]: the share of the other seats whose score it beats (a tie is half
    a win); ``score_scale`` is the search's margin scale, which winning alone ignores."""
    seats = len(scores)
    if seats < 2:
        return [1.0] * seats
    shares = []
    for seat, mine in enumerate(scores):
        beaten = sum(1.0 if mine > score else 0.5 if mine == score else 0.0
                     for other, score in enumerate(scores) if other != seat)
        shares.append(beaten / (seats - 1))
    return shares
