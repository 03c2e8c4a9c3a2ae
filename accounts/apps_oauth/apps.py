from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AppsOAuthConfig(AppConfig):
    name = "accounts.apps_oauth"
    label = "apps_oauth"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Apps and tokens")

    def ready(self) -> None:
        from accounts.apps_oauth import openapi, origins, revocation_triggers  # noqa: F401

        revocation_triggers.connect()  # a token or an app's access ends its connections
        origins.connect()  # apps' origins answer CORS, invalidated on every change
