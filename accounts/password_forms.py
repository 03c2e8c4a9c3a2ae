"""The admin's two password forms, saving the password column alone.

Django's forms save the whole user row (``user.save()``), and the runtime database role
may update only ``password`` and ``last_login`` of accounts_user (infra/database_roles.py):
a whole-row save would be refused. These save what they change, the password, and
nothing else, so changing a password is the same UPDATE whoever runs it.
"""

from __future__ import annotations

from django.contrib.admin.forms import AdminPasswordChangeForm as OwnPasswordChangeForm
from django.contrib.auth.forms import AdminPasswordChangeForm as SetPasswordOfForm


class _SavesThePasswordOnly:
    def save(self, commit=True):
        user = super().save(commit=False)
        if commit:
            user.save(update_fields=["password"])
        return user


class OwnPasswordForm(_SavesThePasswordOnly, OwnPasswordChangeForm):
    """The admin's "change password" page: your own, with the old one."""


class SetPasswordForm(_SavesThePasswordOnly, SetPasswordOfForm):
    """The user page's "change password" form: an admin sets another user's password
    (or makes it unusable)."""
