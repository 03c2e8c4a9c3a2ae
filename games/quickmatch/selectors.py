"""Reading quick-match requests: a person's own, newest first."""

from __future__ import annotations

from django.db.models import QuerySet

from games.quickmatch.models import QuickMatchRequest

RECENT = 20


def request_row(request: QuickMatchRequest) -> dict:
    return {
        "id": request.pk, "game": request.game, "players": request.players,
        "options": request.options, "time_control": request.time_control,
        "rating_range": {"min": request.rating_min, "max": request.rating_max},
        "rating": request.rating, "status": request.status, "match_id": request.match_id,
        "created_at": request.created_at, "expires_at": request.expires_at,
        "closed_at": request.closed_at,
    }


def requests_of(user) -> list[dict]:
    """``user``'s latest quick-match requests (any status), newest first."""
    return [request_row(request) for request in requests_query(user)[:RECENT]]


def requests_query(user) -> QuerySet[QuickMatchRequest]:
    """Every quick-match request of ``user`` (any status), newest first."""
    return QuickMatchRequest.objects.filter(user=user).order_by("-created_at", "-pk")
