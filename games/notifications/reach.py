"""Whether any user can be told anything at all: a push subscription or a confirmed mail
address exists. Asked at most once per NOTIFICATION_REACH_CHECK_SECONDS per process
(infra/checked_every.py): while nobody can be told, a move sends no task and pays no
query (games/notifications/fanout.py).

Its own module so that what makes someone reachable can say so at once, without importing
the fan-out (which imports the push channel): ``mark_reachable_after_commit`` is called by
a push subscription (games/notifications/push.py) and a mail address's confirmation
(games/mail/services.py). The process that made the change then tells them from its next
event on; the others within NOTIFICATION_REACH_CHECK_SECONDS."""

from __future__ import annotations

from django.apps import apps
from django.db import transaction

from infra.checked_every import CheckedEvery


def confirmed_addresses():
    """The e-mail channel's confirmed addresses (games/mail/models.py ``MailAddress``; the
    runtime role may not write ``accounts_user.email``, so a player's mail address lives
    there). Named through the app registry: games.mail asks this package's preferences,
    so importing it here would close a circle."""
    address = apps.get_model("games", "MailAddress")
    return address.objects.filter(verified_at__isnull=False)


def _anyone_with_a_channel() -> bool:
    subscription = apps.get_model("games", "PushSubscription")
    return subscription.objects.exists() or confirmed_addresses().exists()


anyone_reachable: CheckedEvery[bool] = CheckedEvery(
    "NOTIFICATION_REACH_CHECK_SECONDS", _anyone_with_a_channel, False)


def mark_reachable_after_commit() -> None:
    """In the transaction that gives someone a channel: once it commits, this process
    knows at once that someone is reachable (a cached "no" would otherwise keep their
    first notices from them until it expires)."""
    transaction.on_commit(lambda: anyone_reachable.set(True))
