"""Admin for users and API tokens.

The web's database role may change only a user's password and last login
(infra/database_roles.py), so the user pages show everything and change nothing but the
password (its own form, accounts/password_forms.py); making someone staff or superuser,
renaming, deactivating or deleting a user is done as the database owner (docs/admin.md).
Tokens are created and revoked (deleted) here, never changed."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from rest_framework.authtoken.admin import TokenAdmin as DrfTokenAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts.models import User
from accounts.password_forms import SetPasswordForm
from infra.database_roles import USER_UPDATABLE


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

    def has_delete_permission(self, request, obj=None):
        return False  # the database role refuses it: the owner's job (docs/admin.md)


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class TokenAdmin(DrfTokenAdmin):
    # Thousands of users make the default <select> unusable; pick the owner by id.
    raw_id_fields = ["user"]
    search_fields = ["user__username"]

    def has_change_permission(self, request, obj=None):
        return False  # a token is issued and revoked, never handed to another user
