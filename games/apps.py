from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from config.database_roles import grant_after_migrate

        # After every migrate, the runtime role gets its privileges on every table
        # (config/database_roles.py): tables added by later migrations included.
        post_migrate.connect(grant_after_migrate, sender=self,
                             dispatch_uid="grant_runtime_privileges")
