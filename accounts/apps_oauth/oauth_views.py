"""The pages and endpoints of the authorization server that are ours rather than
django-oauth-toolkit's as they come: the consent page (our template, the app named with
its owner and homepage, each scope with its description), and token introspection for
public clients (RFC 7662).

The sign-in in front of the consent page is Django's own LoginView with our template
(urls.py): a player types their password only into a page of this service.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.models import get_access_token_model
from oauth2_provider.views import AuthorizationView

from accounts.apps_oauth import tokens


class ConsentView(AuthorizationView):
    """GET shows the consent page (after sign-in); POST with ``allow`` issues the code and
    redirects to the app's registered redirect URI, without ``allow`` refuses
    (``access_denied``). Every request is checked again by oauthlib: the client, the exact
    redirect URI, the S256 code challenge, the scopes."""

    template_name = "apps_oauth/consent.html"


@method_decorator(csrf_exempt, name="dispatch")
class IntrospectView(View):
    """RFC 7662 for public clients: ``POST token=...&client_id=...`` answers
    ``{"active": true, "scope", "exp", "client_id", "username", "token_type"}`` for a live
    access token of that client, ``{"active": false}`` for anything else (unknown,
    expired, revoked, another app's, its app suspended). A client learns nothing about
    tokens that are not its own."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        key, client_id = request.POST.get("token", ""), request.POST.get("client_id", "")
        if not key or not client_id or not tokens.is_oauth_key(key):
            return _inactive()
        token = (get_access_token_model().objects.select_related("user", "application")
                 .filter(token_checksum=tokens.checksum(key)).first())
        if (token is None or token.application is None
                or token.application.client_id != client_id or not token.application.active
                or token.is_expired() or not token.user.is_active):
            return _inactive()
        return _no_store(JsonResponse({
            "active": True, "scope": token.scope, "client_id": client_id,
            "username": token.user.username, "token_type": "Bearer",
            "exp": int(token.expires.timestamp()),
        }))


def _inactive() -> JsonResponse:
    return _no_store(JsonResponse({"active": False}))


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response
