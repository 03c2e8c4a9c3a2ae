"""An app's or a personal token's access revoked ends the connections it opened
(accounts/revocation.py), wherever the change comes from: model signals, as
accounts/revocation_triggers.py does for first-party tokens.

- **An access token deleted**: its revocation (RFC 7009), a personal token revoked, a
  connected app revoked, a refresh token's rotation or its reuse (the family's access
  tokens deleted), the admin, its user or app deleted: announced for that one key (its
  checksum), so the user's connections opened with other keys stay open.
- **An app suspended** (``active`` saved false after true): announced for every key of
  the app, per user. The tokens are kept, refused while the app is suspended
  (credentials.py), and work again if it is reactivated before they expire.

Bulk ``QuerySet.update()`` of ``active`` sends no signal: the connections' re-check
refuses the keys within ``ACCESS_RECHECK_SECONDS`` / ``PLAY_ACCESS_CHECK_SECONDS``.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models.signals import post_delete, post_save, pre_save
from oauth2_provider.models import get_access_token_model, get_application_model

from accounts.revocation import announce_access_revoked


def access_token_deleted(sender, instance, **kwargs) -> None:
    if instance.user_id is not None and instance.token_checksum:
        announce_access_revoked(instance.user_id, [instance.token_checksum])


def note_suspension(sender, instance, update_fields=None, **kwargs) -> None:
    instance._suspending = False
    if instance._state.adding or instance.pk is None or instance.active:
        return
    if update_fields is not None and "active" not in update_fields:
        return
    instance._suspending = sender.objects.filter(pk=instance.pk, active=True).exists()


def app_saved(sender, instance, created=False, **kwargs) -> None:
    if created or not getattr(instance, "_suspending", False):
        return
    instance._suspending = False
    keys = defaultdict(list)
    for user_id, checksum in (get_access_token_model().objects
                              .filter(application_id=instance.pk, user_id__isnull=False)
                              .values_list("user_id", "token_checksum")):
        keys[user_id].append(checksum)
    for user_id, checksums in keys.items():
        announce_access_revoked(user_id, checksums)


def connect() -> None:
    """Called once by AppsOAuthConfig.ready."""
    post_delete.connect(access_token_deleted, sender=get_access_token_model(),
                        dispatch_uid="apps-oauth-access-token-deleted")
    app_model = get_application_model()
    pre_save.connect(note_suspension, sender=app_model, dispatch_uid="apps-oauth-suspension")
    post_save.connect(app_saved, sender=app_model, dispatch_uid="apps-oauth-app-saved")
