"""The move service's metrics: each committed move counted by game and mover, each refusal
by its code (infra/observability/metrics.py). A wrapper, so the service's own steps stay
as docs/architecture.md, "Writing a move", lists them."""

from __future__ import annotations

from functools import partial, wraps

from django.db import transaction

from infra.api_errors import ApiError
from infra.observability import metrics


def counted_moves(submit_move):
    """Count what ``submit_move`` lands (once its transaction commits) and refuses."""

    @wraps(submit_move)
    def counted(**kwargs):
        try:
            submitted = submit_move(**kwargs)
        except ApiError as refusal:
            metrics.move_refused(refusal.code, by_bot=kwargs.get("bot_seat") is not None)
            raise
        # at once if no outer transaction holds the move back, else at its commit
        transaction.on_commit(partial(metrics.move_committed, submitted.match.game,
                                      by_bot=kwargs.get("bot_seat") is not None))
        return submitted

    return counted
