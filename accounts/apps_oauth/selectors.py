"""The reads of apps and tokens: a player's personal tokens and connected apps, an
owner's apps."""

from __future__ import annotations

from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_refresh_token_model

from accounts.apps_oauth.models import App, AppUse, PersonalToken


def personal_tokens(user):
    return (PersonalToken.objects.filter(user=user)
            .select_related("access_token").order_by("-created", "-id"))


def connected_apps(user) -> list[dict]:
    """Each app holding a live access or refresh token of ``user``: the app, the scopes
    it was given (all its tokens together), when it was first granted and last used."""
    now = timezone.now()
    grants: dict[int, dict] = {}
    live_access = (get_access_token_model().objects
                   .filter(user=user, application__isnull=False, expires__gt=now)
                   .values_list("application_id", "scope", "created"))
    live_refresh = (get_refresh_token_model().objects
                    .filter(user=user, revoked__isnull=True)
                    .values_list("application_id", "access_token__scope", "created"))
    for app_id, scope, created in [*live_access, *live_refresh]:
        entry = grants.setdefault(app_id, {"scopes": set(), "since": created})
        entry["scopes"].update((scope or "").split())
        entry["since"] = min(entry["since"], created)
    apps = App.objects.in_bulk(list(grants))
    uses = dict(AppUse.objects.filter(user=user, app_id__in=list(grants))
                .values_list("app_id", "last_used"))
    return [{"app": apps[app_id], "scopes": sorted(entry["scopes"]),
             "connected_since": entry["since"], "last_used": uses.get(app_id)}
            for app_id, entry in sorted(grants.items()) if app_id in apps]


def owned_apps(user):
    return App.objects.filter(user=user).order_by("id")


def owned_app(user, app_id: int) -> App | None:
    return App.objects.filter(user=user, pk=app_id).first()
