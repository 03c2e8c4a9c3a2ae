"""Erasing an account: a player's right to leave (issue 25; docs/security.md "Erasing an
account").

The person's row is not deleted: seats, incidents, results, ratings and records of matches
other people played point to it, and deleting it would either destroy those matches
(a cascade) or be refused (seats protect their user). It becomes a **tombstone** instead:

- the username becomes ``deleted-`` and 12 random hex digits, chosen once and stored, so
  it is stable (every record and page shows the same name) and says nothing of the old
  one; registration refuses every name of that form (accounts/usernames.py), so it is
  never taken by anyone, before or after;
- email, first and last name and the last login are emptied, the password made unusable,
  the account inactive, its group and permission links removed;
- its API token is deleted and its open connections told at once
  (accounts/revocation.py): the GraphQL websockets, the feed streams and the play sockets
  close on the announcement.

The row's columns change through ``accounts_erase_user``, a database function owned by the
owner role (accounts/migrations/0003_erase_user_function.py): the runtime role may not
update a username, an email or ``is_active`` otherwise (infra/database_roles.py).
Administrators (staff or superusers) are refused: who holds power is the owner's to
change (docs/operations.md).

What games make of a leaver (their seats, invitations, quick-match requests, feed) is not
known here: accounts sits below games. ``account_erased`` is sent inside the erasing
transaction, once the row is a tombstone, with the tombstone and the former username (to
find copies of it); games/leaving connects to it. A receiver that raises undoes the whole
erasure. The admin's log names the account by its tombstone from then on.

Every way in calls ``erase_account``: ``DELETE /api/v1/me`` (accounts/views.py), GraphQL
``deleteAccount`` and the admin's delete pages (accounts/admin.py).
"""

from __future__ import annotations

import secrets

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.dispatch import Signal
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token

from accounts import failed_logins
from accounts.models import User
from accounts.revocation import announce_access_revoked
from accounts.usernames import TOMBSTONE_PREFIX, is_tombstone
from infra.api_errors import ApiError

#: sent as ``send(sender=User, user=tombstone, former_username=name, by=actor)`` once the
#: row is a tombstone, before the commit (``by``: the admin erasing it, None when the
#: person leaves); receivers must not catch their own failures: raising undoes the erasure
account_erased = Signal()

#: hex digits after the prefix: 48 random bits, retried on the rare collision
TOMBSTONE_HEX_DIGITS = 12
_ATTEMPTS = 5


class PasswordRequired(ApiError):
    status_code = 400
    default_code = "password_required"
    default_detail = _("Confirm with your password: {\"password\": \"...\"}.")


class WrongPassword(ApiError):
    status_code = 403
    default_code = "wrong_password"
    default_detail = _("The password is not this account's.")


class AdministratorNotErasable(ApiError):
    status_code = 403
    default_code = "administrator_not_erasable"
    default_detail = _("An administrator's account (staff or superuser) is removed by the "
                       "database owner, not through the API.")


def confirm_password(user, password, *, address: str) -> None:
    """Raise unless ``password`` is ``user``'s: PasswordRequired (400) when none was sent,
    WrongPassword (403). Wrong passwords count as failed logins of the account
    (accounts/failed_logins.py), so a stolen token is no way round their back-off."""
    if not isinstance(password, str) or password == "":
        raise PasswordRequired()
    failed_logins.check(user.username, address)
    if not user.check_password(password):
        failed_logins.record_failure(user.username, address)
        raise WrongPassword()
    failed_logins.record_success(user.username, address)


def is_erased(user) -> bool:
    return is_tombstone(user.username) and not user.is_active


@transaction.atomic
def erase_account(user, *, by=None) -> str:
    """Turn ``user``'s account into a tombstone (the module's docstring) and return its
    new username. Erasing an erased account changes nothing. Raises
    AdministratorNotErasable (403) and whatever a receiver of ``account_erased`` raises;
    either way nothing is written."""
    # the row locked: two erasures of one account (two tabs, the admin and the person)
    # run one after the other, and the second finds a tombstone
    row = User.objects.select_for_update().get(pk=user.pk)
    if is_erased(row):
        return row.username
    if row.is_staff or row.is_superuser:
        raise AdministratorNotErasable()
    former = row.username
    for token in Token.objects.filter(user_id=row.pk):
        token.delete()  # accounts.revocation_triggers announces it
    row.groups.clear()
    row.user_permissions.clear()
    tombstone = _write_tombstone(row.pk)
    row.refresh_from_db()
    LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(User),
                            object_id=str(row.pk)).update(object_repr=tombstone)
    account_erased.send(sender=User, user=row, former_username=former, by=by)
    announce_access_revoked(row.pk)  # also the connections a token did not open
    return tombstone


def _write_tombstone(user_id: int) -> str:
    for _attempt in range(_ATTEMPTS):
        name = TOMBSTONE_PREFIX + secrets.token_hex(TOMBSTONE_HEX_DIGITS // 2)
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT accounts_erase_user(%s, %s)", [user_id, name])
                (changed,) = cursor.fetchone()
        except IntegrityError:  # the name is taken (48 bits: hardly ever): another
            continue
        if not changed:  # checked above under the row's lock: cannot happen
            raise RuntimeError(f"user {user_id} could not be erased")
        return name
    raise RuntimeError(f"no free tombstone name for user {user_id} in {_ATTEMPTS} tries")
