"""The authorization server's routes, mounted at the root (config/urls.py): /oauth/...
and the RFC 8414 metadata at /.well-known/oauth-authorization-server. Named in the
``oauth2_provider`` namespace, which django-oauth-toolkit's metadata view reverses."""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from oauth2_provider import views as dot_views

from accounts.apps_oauth.login import SignInView
from accounts.apps_oauth.oauth_views import ConsentView, IntrospectView

oauth_patterns = ([
    path("oauth/authorize/", ConsentView.as_view(), name="authorize"),
    path("oauth/token/", dot_views.TokenView.as_view(), name="token"),
    path("oauth/revoke/", dot_views.RevokeTokenView.as_view(), name="revoke-token"),
    path("oauth/introspect/", IntrospectView.as_view(), name="introspect"),
    path(".well-known/oauth-authorization-server",
         dot_views.OAuthServerMetadataView.as_view(), name="oauth-server-metadata"),
], "oauth2_provider")

urlpatterns = [
    path("", include(oauth_patterns)),
    path("oauth/login/", SignInView.as_view(), name="oauth-login"),
    path("oauth/logout/", auth_views.LogoutView.as_view(
        template_name="apps_oauth/logged_out.html"), name="oauth-logout"),
]
