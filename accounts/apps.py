from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # revoked access ends open connections, whichever path revoked it
        from accounts import revocation_triggers

        revocation_triggers.connect()

