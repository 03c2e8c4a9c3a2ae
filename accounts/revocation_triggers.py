"""When a user's access is revoked, wherever the change comes from (the API, the admin's
forms and delete pages, ``manage.py changepassword``, a shell): model signals, so that no
path is forgotten, calling accounts/revocation.py.

- **A token deleted** (``DELETE /api/v1/auth/token/``, GraphQL ``revokeToken``, the
  admin's token pages, a user deleted with their token): announced for its user.
- **A user deactivated** (``is_active`` saved as false after true): announced. The token
  is kept (token authentication refuses inactive users) and works again on reactivation.
- **A password changed** through ``set_password`` (every Django form and command does):
  the user's token is deleted, which announces it. A password change signs every client
  out; logging in again gives a new token. Django's own re-hashing of a password at login
  (a stronger hasher) is not a change and keeps the token.

Bulk ``QuerySet.update()`` calls send no signal; the connections' re-check covers them
within ``ACCESS_RECHECK_SECONDS`` (docs/security.md).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save, pre_save
from rest_framework.authtoken.models import Token, TokenProxy

from accounts.revocation import announce_access_revoked


def token_deleted(sender, instance, **kwargs) -> None:
    announce_access_revoked(instance.user_id)


def note_deactivation(sender, instance, update_fields=None, **kwargs) -> None:
    """Before a save that may deactivate: was the account active until now?"""
    instance._deactivating = False
    if instance._state.adding or instance.pk is None or instance.is_active:
        return
    if update_fields is not None and "is_active" not in update_fields:
        return
    instance._deactivating = sender.objects.filter(pk=instance.pk, is_active=True).exists()


def user_saved(sender, instance, created=False, **kwargs) -> None:
    if created:
        return
    if getattr(instance, "_deactivating", False):
        instance._deactivating = False
        announce_access_revoked(instance.pk)
    # set in set_password and cleared by the save after this signal; None for Django's
    # re-hash at login ("hash upgrades shouldn't be considered password changes")
    if getattr(instance, "_password", None) is not None:
        for token in Token.objects.filter(user_id=instance.pk):
            token.delete()  # token_deleted announces


def connect() -> None:
    """Called once by accounts.apps.AccountsConfig.ready."""
    user_model = get_user_model()
    for token_model in (Token, TokenProxy):  # the admin deletes through the proxy
        post_delete.connect(token_deleted, sender=token_model,
                            dispatch_uid=f"access-token-deleted-{token_model.__name__}")
    pre_save.connect(note_deactivation, sender=user_model, dispatch_uid="access-deactivation")
    post_save.connect(user_saved, sender=user_model, dispatch_uid="access-user-saved")
