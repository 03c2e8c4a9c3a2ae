"""The reads of webhooks: an app's endpoints, an endpoint's delivery log, and which
endpoints an event for some users goes to."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model

from accounts import scopes
from games.webhooks.models import Delivery, Endpoint

#: the scope a user's grant must hold for an app to hear of their games: the one that
#: lets it see "your games and your invitations" (accounts/scopes.py)
EVENT_SCOPE = "account:read"


def endpoints_of(app):
    return Endpoint.objects.filter(app=app).order_by("id")


def endpoint_of(app, endpoint_id: int) -> Endpoint | None:
    return Endpoint.objects.filter(app=app, pk=endpoint_id).first()


def deliveries_of(endpoint: Endpoint):
    return Delivery.objects.filter(endpoint=endpoint).order_by("-id")


def delivery_of(endpoint: Endpoint, delivery_id: int) -> Delivery | None:
    return Delivery.objects.filter(endpoint=endpoint, pk=delivery_id).first()


def apps_serving(user_ids: list[int]) -> dict[int, set[int]]:
    """app id -> the users among ``user_ids`` who granted it ``EVENT_SCOPE`` and still
    hold a live access token or an unrevoked refresh token of it (what the connected-apps
    page calls connected: accounts/apps_oauth/selectors.py)."""
    now = timezone.now()
    # one round trip (a UNION ALL): this runs for every "your turn" of a user of any app
    rows = (
        get_access_token_model().objects
        .filter(user_id__in=user_ids, application__isnull=False, expires__gt=now,
                scope__contains=EVENT_SCOPE)
        .values_list("application_id", "user_id", "scope")
        .union(get_refresh_token_model().objects
               .filter(user_id__in=user_ids, revoked__isnull=True,
                       access_token__scope__contains=EVENT_SCOPE)
               .values_list("application_id", "user_id", "access_token__scope"), all=True)
    )
    serving: dict[int, set[int]] = {}
    for app_id, user_id, scope in rows:
        if EVENT_SCOPE in scopes.parse(scope):
            serving.setdefault(app_id, set()).add(user_id)
    return serving


def endpoints_taking(app_ids, event_types) -> list[Endpoint]:
    """The active endpoints of active apps among ``app_ids`` that take any of
    ``event_types``: one read for a whole batch of events (games/webhooks/batches.py)."""
    takes_any = Q()
    for event_type in sorted(set(event_types)):
        takes_any |= Q(event_types__contains=[event_type])
    return list(Endpoint.objects.filter(takes_any, app_id__in=list(app_ids), active=True,
                                        app__active=True).order_by("id"))
