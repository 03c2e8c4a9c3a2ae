from django.apps import AppConfig
from django.conf import settings
from django.core.signals import setting_changed
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _register_extra_games(**kwargs) -> None:
    """Hand ``settings.EXTRA_GAMES`` to the rules registry: at start-up, and again when a
    test changes the setting. A ``game@version`` entry is a plugin's frozen engine of an
    older rules version (rules/versions.py); every other entry a game's current engine."""
    if kwargs.get("setting", "EXTRA_GAMES") != "EXTRA_GAMES":
        return
    from rules.registry import set_extra_games
    from rules.versions import set_extra_versions

    entries = getattr(settings, "EXTRA_GAMES", {}) or {}
    set_extra_games({name: path for name, path in entries.items() if "@" not in name})
    set_extra_versions({tuple(name.split("@", 1)): path
                        for name, path in entries.items() if "@" in name})


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import infra.checks  # noqa: F401 - registers the project's system checks
        import infra.config_checks  # noqa: F401 - and the environment's (issue 40)
        from infra.database_roles import grant_after_migrate

        # After every migrate, the runtime role gets its privileges on every table
        # (infra/database_roles.py): tables added by later migrations included; what each
        # capability's tables allow is its database_grants.py, beside its models.
        post_migrate.connect(grant_after_migrate, sender=self,
                             dispatch_uid="grant_runtime_privileges")

        # An erased account leaves its games (games/leaving/services.py): accounts sends
        # the signal, as it may not import games.
        from accounts.erasure import account_erased
        from games.leaving.services import on_account_erased

        account_erased.connect(on_account_erased, dispatch_uid="games-leaving")

        # A match's change (games/matches/changes.py): a scoring's ratings and the feed's
        # events land in the writer's transaction (games/matches may not import those
        # outer capabilities: they register here); after the commit the readers are sent
        # what they may see (games/live/), then the tasks the match waits on go.
        from games.feed.services import announce_change
        from games.live.fanout import send_change
        from games.matches import changes
        from games.matches.follow_up import send_tasks
        from games.notifications.fanout import send_change_notifications
        from games.ratings.services import rate_change
        from games.webhooks.events import send_change_events

        changes.connect(rate_change, within_transaction=True)
        changes.connect(announce_change, within_transaction=True)
        changes.connect(send_change)
        changes.connect(send_tasks)
        # the apps' webhooks (games/webhooks/): a task per event, after the readers'
        changes.connect(send_change_events)
        # the players' own channels, push and e-mail (games/notifications/), beside them
        changes.connect(send_change_notifications)


        _register_extra_games()
        setting_changed.connect(_register_extra_games, dispatch_uid="games-extra-games")
