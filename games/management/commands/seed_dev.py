"""`manage.py seed_dev`: a development admin (admin/admin) and a few demo players.

Idempotent: existing accounts are left as they are (a changed password is not reset).
Refuses to run with DEBUG off unless --force, so a weak admin password never reaches a
production database by accident. Other apps' demo data is added in `seed_demo_data`.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import User

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "admin"
DEMO_PLAYERS = ["alice", "bob", "carol", "dave"]
DEMO_PASSWORD = "demo-player-password"


class Command(BaseCommand):
    help = "Create the development admin (admin/admin) and demo players, idempotently."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="run even when DEBUG is off (not for production)"
        )

    def handle(self, *args, force: bool = False, **options):
        if not settings.DEBUG and not force:
            raise CommandError("seed_dev creates admin/admin: refusing with DEBUG off (--force)")
        with transaction.atomic():
            self.seed_admin()
            players = self.seed_players()
            self.seed_demo_data(players)

    def seed_admin(self) -> User:
        admin = User.objects.filter(username=ADMIN_USERNAME).first()
        if admin is None:
            # create_superuser skips the password validators: admin/admin is deliberate here.
            admin = User.objects.create_superuser(ADMIN_USERNAME, "admin@localhost", ADMIN_PASSWORD)
            self.stdout.write(f"created superuser {ADMIN_USERNAME}/{ADMIN_PASSWORD}")
        else:
            self.stdout.write(f"superuser {ADMIN_USERNAME} already exists")
        return admin

    def seed_players(self) -> list[User]:
        players = []
        for username in DEMO_PLAYERS:
            player, created = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@example.org"}
            )
            if created:
                player.set_password(DEMO_PASSWORD)
                player.save(update_fields=["password"])
            token, _ = Token.objects.get_or_create(user=player)
            state = "created" if created else "exists "
            self.stdout.write(f"{state} demo player {username:<6} token {token.key}")
            players.append(player)
        return players

    def seed_demo_data(self, players: list[User]) -> None:
        """Hook for demo data of other apps (matches...), given the demo players."""
        from games.management.demo import seed_demo_matches

        seed_demo_matches(players, write=self.stdout.write)
