"""Django's admin site, with its own "change password" page saving only the password
(accounts/password_forms.py): the runtime database role may not write the rest of a user's
row. ``accounts.admin_apps.GameAdminConfig`` installs it in place of
``django.contrib.admin`` (config/settings.py), so ``admin.site`` everywhere is this site."""

from __future__ import annotations

from django.contrib.admin import AdminSite
from django.contrib.auth.views import PasswordChangeView
from django.urls import reverse

from accounts.password_forms import OwnPasswordForm


class GameAdminSite(AdminSite):
    def password_change(self, request, extra_context=None):
        # Django's AdminSite.password_change (5.2) with our form: the method names its
        # form class inside, so it is repeated here; compare after a Django upgrade.
        defaults = {
            "form_class": OwnPasswordForm,
            "success_url": reverse("admin:password_change_done", current_app=self.name),
            "extra_context": {**self.each_context(request), **(extra_context or {})},
        }
        if self.password_change_template is not None:
            defaults["template_name"] = self.password_change_template
        request.current_app = self.name
        return PasswordChangeView.as_view(**defaults)(request)
