"""Admin for users and API tokens.

The web's database role may change only a user's password and last login
(infra/database_roles.py), so the user pages show everything and change nothing but the
password (its own form, accounts/password_forms.py); making someone staff or superuser,
renaming or deactivating a user is done as the database owner (docs/admin.md).
Deleting a player (the delete page, "delete selected") erases the account as the player's
own ``DELETE /api/v1/me`` does (accounts/erasure.py): a tombstone, not a cascade that would
take their matches with it; an administrator's account is the owner's to remove.
Tokens are created and revoked (deleted) here, never changed."""

from django.contrib import admin, messages
from django.contrib.admin.models import DELETION, LogEntry
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from rest_framework.authtoken.admin import TokenAdmin as DrfTokenAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts import erasure
from accounts.database_grants import USER_UPDATABLE
from accounts.models import User
from accounts.password_forms import SetPasswordForm


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    change_password_form = SetPasswordForm
    # every field of the change page but the password, which links to its own form
    readonly_fields = ("username", "first_name", "last_name", "email", "is_active",
                       "is_staff", "is_superuser", "groups", "user_permissions",
                       "last_login", "date_joined")

    def save_model(self, request, obj, form, change):
        if not change:  # adding a user: a whole new row (never staff: the form has no say)
            return super().save_model(request, obj, form, change)
        fields = [name for name in form.changed_data if name in USER_UPDATABLE]
        if fields:
            obj.save(update_fields=fields)
        return None

    # -- deleting is erasing (accounts/erasure.py) ----------------------------------------
    def has_delete_permission(self, request, obj=None):
        if obj is not None and (obj.is_staff or obj.is_superuser):
            return False  # an administrator: the owner's job (docs/admin.md)
        return super().has_delete_permission(request, obj)

    def get_deleted_objects(self, objs, request):
        # What the confirmation page lists: the accounts erased, nothing else (no seat,
        # match or result goes). Administrators are refused as "protected".
        erased = [f"{user.username} (erased: a tombstone keeps their matches)"
                  for user in objs if not (user.is_staff or user.is_superuser)]
        protected = [f"{user.username} (an administrator: removed by the database owner)"
                     for user in objs if user.is_staff or user.is_superuser]
        return erased, {User._meta.verbose_name_plural: len(erased)}, set(), protected

    def log_deletions(self, request, queryset):
        pass  # logged after the erasure, under the tombstone: no old name in the log

    def delete_model(self, request, obj):
        self._erase(request, [obj])

    def delete_queryset(self, request, queryset):
        self._erase(request, list(queryset))

    def _erase(self, request, users) -> None:
        for user in users:
            erasure.erase_account(user, by=request.user)
        erased = list(User.objects.filter(pk__in=[user.pk for user in users]))
        LogEntry.objects.log_actions(user_id=request.user.pk, queryset=erased,
                                     action_flag=DELETION)
        self.message_user(request, f"{len(erased)} account(s) erased: their matches, "
                          "records and ratings stay under a tombstone.", messages.INFO)


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class TokenAdmin(DrfTokenAdmin):
    # Thousands of users make the default <select> unusable; pick the owner by id.
    raw_id_fields = ["user"]
    search_fields = ["user__username"]

    def has_change_permission(self, request, obj=None):
        return False  # a token is issued and revoked, never handed to another user
