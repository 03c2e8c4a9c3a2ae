"""The REST shapes of personal tokens, connected apps and an owner's apps."""

from __future__ import annotations

from oauth2_provider.settings import oauth2_settings
from rest_framework import serializers

from accounts.apps_oauth.models import App
from accounts.scopes import SCOPES


class PersonalTokenRequestSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=sorted(SCOPES)),
                                   min_length=1, max_length=len(SCOPES))
    expires_in_days = serializers.IntegerField(min_value=1, max_value=3650, required=False,
                                               allow_null=True)


class PersonalTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    scopes = serializers.SerializerMethodField()
    created = serializers.DateTimeField()
    expires = serializers.SerializerMethodField()
    last_used = serializers.DateTimeField(allow_null=True)

    def get_scopes(self, token) -> list[str]:
        return sorted(token.access_token.scope.split())

    def get_expires(self, token) -> str | None:
        from accounts.apps_oauth.services import NO_EXPIRY

        expires = token.access_token.expires
        if expires - token.created >= NO_EXPIRY - NO_EXPIRY / 100:
            return None  # made without an expiry
        return serializers.DateTimeField().to_representation(expires)


class NewPersonalTokenSerializer(PersonalTokenSerializer):
    token = serializers.CharField(help_text="The token itself: shown this once, never again.")


class AppSummarySerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="user.username", allow_null=True, default=None)

    class Meta:
        model = App
        fields = ("id", "client_id", "name", "homepage", "owner")


class ConnectedAppSerializer(serializers.Serializer):
    app = AppSummarySerializer()
    scopes = serializers.ListField(child=serializers.CharField())
    connected_since = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)


class OwnedAppSerializer(serializers.ModelSerializer):
    """An app as its owner registers and edits it: redirect URIs and origins as lists."""

    redirect_uris = serializers.ListField(child=serializers.URLField(max_length=500),
                                          min_length=1, max_length=10)
    allowed_origins = serializers.ListField(child=serializers.CharField(max_length=200),
                                            required=False, max_length=10)
    # set by the service's staff; empty: the standard limits (the schema says "" too)
    rate_tier = serializers.ChoiceField(choices=App.RateTier.choices, allow_blank=True,
                                        read_only=True,
                                        help_text="Empty: the standard limits.")

    class Meta:
        model = App
        fields = ("id", "client_id", "name", "homepage", "redirect_uris", "allowed_origins",
                  "rate_tier", "active", "created")
        read_only_fields = ("id", "client_id", "rate_tier", "created")
        extra_kwargs = {"name": {"required": True, "allow_blank": False}}

    def to_representation(self, app):
        body = super().to_representation(app)
        body["redirect_uris"] = app.redirect_uris.split()
        body["allowed_origins"] = app.allowed_origins.split()
        return body

    def validate_redirect_uris(self, uris: list[str]) -> str:
        schemes = oauth2_settings.ALLOWED_REDIRECT_URI_SCHEMES
        for uri in uris:
            if "#" in uri or any(char.isspace() for char in uri):
                raise serializers.ValidationError("A redirect URI has no fragment and no space.")
            if uri.split(":", 1)[0].lower() not in schemes:
                # production allows https only (config/oauth_settings.py, docs/apps.md)
                raise serializers.ValidationError(
                    "A redirect URI's scheme must be one of: " + ", ".join(schemes) + ".")
        return " ".join(uris)

    def validate_allowed_origins(self, origins: list[str]) -> str:
        from urllib.parse import urlsplit

        for origin in origins:
            url = urlsplit(origin)
            if (url.scheme not in ("http", "https") or not url.netloc or url.path
                    or url.query or url.fragment or origin != f"{url.scheme}://{url.netloc}"):
                raise serializers.ValidationError(
                    "An origin is scheme://host[:port], nothing more: " + origin[:200])
        return " ".join(origins)
