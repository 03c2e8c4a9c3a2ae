"""The apps in Django admin: register, edit origins and redirect URIs, suspend. The
token tables are django-oauth-toolkit's own admin pages (they show no token: only
checksums are stored)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from accounts.apps_oauth.models import PersonalToken
from infra.observability.app_counts import app_counts


class AppAdmin(admin.ModelAdmin):
    """Registered by django-oauth-toolkit's admin (its APPLICATION_ADMIN_CLASS setting)."""

    list_display = ("name", "client_id", "user", "active", "rate_tier", "created")
    list_filter = ("active", "rate_tier")
    search_fields = ("name", "client_id", "user__username")
    raw_id_fields = ("user",)
    fields = ("name", "client_id", "user", "homepage", "redirect_uris", "allowed_origins",
              "rate_tier", "active", "usage")
    readonly_fields = ("client_id", "usage")
    actions = ("suspend", "reactivate")

    @admin.display(description=_("usage"))
    def usage(self, app):
        """What the app's tokens did (infra/observability/app_counts.py: this machine's
        processes, since their metrics were last cleared)."""
        if app is None or app.pk is None:
            return "-"
        counts = app_counts(app.pk)
        return _("%(requests)d requests, %(errors)d errors, %(moves)d moves") % counts

    @admin.action(description=_("Suspend the selected apps (their tokens are refused)"))
    def suspend(self, request, queryset):
        for app in queryset.filter(active=True):
            app.active = False
            app.save(update_fields=["active", "updated"])  # signals: sockets, origins

    @admin.action(description=_("Reactivate the selected apps"))
    def reactivate(self, request, queryset):
        for app in queryset.filter(active=False):
            app.active = True
            app.save(update_fields=["active", "updated"])


@admin.register(PersonalToken)
class PersonalTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "created", "last_used")
    search_fields = ("name", "user__username")
    raw_id_fields = ("user", "access_token")
