"""The registered apps, the personal access tokens and when each was last used.

Access and refresh tokens themselves are django-oauth-toolkit's tables (``AccessToken``,
``RefreshToken``, ``Grant``), stored hashed at rest (its RFC 9700 token storage: only the
SHA-256 checksum is kept, the ``token`` column stays blank). A personal access token is an
``AccessToken`` without an application, named here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from oauth2_provider.models import AbstractApplication
from oauth2_provider.settings import oauth2_settings


class App(AbstractApplication):
    """A third-party frontend or program: DOT's application with what the service needs.

    Only one kind is served: a public client (no secret: a browser page or a native app
    cannot keep one) using the authorization code with PKCE. ``save`` holds every app to
    it, whoever writes (the owner's API, the admin). ``user`` (DOT's field) is the owner.
    Redirect URIs match exactly, character for character; ``allowed_origins`` (space
    separated, DOT's field) are the browser origins CORS and the websockets accept."""

    class RateTier(models.TextChoices):
        STANDARD = "standard", _("standard")
        HIGH = "high", _("high")

    homepage = models.URLField(_("homepage"), blank=True, max_length=500)
    rate_tier = models.CharField(_("rate-limit tier"), max_length=16, blank=True,
                                 choices=RateTier.choices,
                                 help_text=_("Empty: the standard limits."))
    active = models.BooleanField(
        _("active"), default=True,
        help_text=_("A suspended app signs nobody in and its tokens are refused at once."))

    class Meta(AbstractApplication.Meta):
        swappable = "OAUTH2_PROVIDER_APPLICATION_MODEL"
        verbose_name = _("app")
        verbose_name_plural = _("apps")

    def save(self, *args, **kwargs):
        self.client_type = self.CLIENT_PUBLIC
        self.authorization_grant_type = self.GRANT_AUTHORIZATION_CODE
        self.skip_authorization = False  # a player always sees the consent page
        self.client_secret = ""
        self.hash_client_secret = False
        self.algorithm = self.NO_ALGORITHM
        super().save(*args, **kwargs)

    def redirect_uri_allowed(self, uri: str) -> bool:
        """Exact string match only: no prefix, no other port, no added path or query."""
        return uri in self.redirect_uris.split()

    def is_usable(self, request) -> bool:
        return self.active

    def origins(self) -> list[str]:
        return self.allowed_origins.split()


class PersonalToken(models.Model):
    """A named access token a player made for a script or a bot, with chosen scopes and
    an optional expiry (its ``AccessToken`` holds both and the checksum)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="personal_tokens")
    name = models.CharField(_("name"), max_length=100)
    access_token = models.OneToOneField(oauth2_settings.ACCESS_TOKEN_MODEL,
                                        on_delete=models.CASCADE, related_name="personal")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created", "-id")


class AppUse(models.Model):
    """When a player's tokens of an app were last used (the connected-apps page): kept
    per app and player, since rotating a refresh token replaces the access token."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="app_uses")
    app = models.ForeignKey(App, on_delete=models.CASCADE, related_name="uses")
    last_used = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=("user", "app"),
                                               name="apps_oauth_appuse_one_per_user_app")]
