"""What happens elsewhere, in the same transaction, when a match is scored: a small explicit
registry, so that the scoring service (``games.matches.scoring``) needs no import of the
capabilities that act on a result (docs/architecture.md: capabilities point one way,
outer ones above games/matches).

The registry is filled once, at start-up, by ``games/apps.py`` (``GamesConfig.ready``):
today only the ratings (``games.ratings.services.rate_scored_match``: move the ratings,
and ask for the analysis of a rated match). Each receiver is called as
``receiver(match, ranks)`` with the match row still locked, after its results are written
and before the follow-up is scheduled, so results and ratings land together and once.
A receiver that raises rolls the scoring back, as a failed rating always did.
"""

from __future__ import annotations

from collections.abc import Callable

from games.matches.models import Match

#: ``receiver(match, ranks)``: ``ranks`` maps each seat to the rank just stored
ScoredReceiver = Callable[[Match, dict[int, int]], None]

_receivers: list[ScoredReceiver] = []


def on_match_scored(receiver: ScoredReceiver) -> None:
    """Call ``receiver`` in every scoring transaction from now on (once, however often it
    is registered: ``ready`` may run again in tests)."""
    if receiver not in _receivers:
        _receivers.append(receiver)


def receivers() -> tuple[ScoredReceiver, ...]:
    """The registered receivers, in registration order (for the start-up check and tests)."""
    return tuple(_receivers)


def match_scored(match: Match, ranks: dict[int, int]) -> None:
    """Tell every receiver that ``match`` was just scored with ``ranks``."""
    for receiver in _receivers:
        receiver(match, ranks)
