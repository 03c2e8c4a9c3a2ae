"""Admin pages of the apps' webhooks: endpoints (the secret never shown) and their delivery
log, read-only, with "send again" going through the service (games.webhooks.services)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from games.webhooks import services
from games.webhooks.models import Delivery, Endpoint


@admin.register(Endpoint)
class EndpointAdmin(admin.ModelAdmin):
    list_display = ("id", "app", "url", "active", "disabled_reason", "created")
    list_filter = ("active",)
    search_fields = ("url", "app__name")
    fields = ("app", "url", "event_types", "active", "disabled_reason", "created")
    readonly_fields = ("app", "url", "event_types", "disabled_reason", "created")

    def has_add_permission(self, request) -> bool:
        return False  # registered by the app's owner, over the API (a secret shown once)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("id", "endpoint", "event_type", "status", "attempts", "last_status_code",
                    "last_latency_ms", "created", "finished")
    list_filter = ("status", "event_type")
    search_fields = ("message_id",)
    actions = ["send_again"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the log is what happened: only "send again" changes a delivery

    @admin.action(description=_("Send again"), permissions=["view"])
    def send_again(self, request, queryset) -> None:
        sent = 0
        for delivery in queryset.select_related("endpoint"):
            try:
                services.send_again(delivery)
                sent += 1
            except services.EndpointDisabled:
                self.message_user(request, _("Delivery %(id)s: its endpoint is disabled.")
                                  % {"id": delivery.pk}, messages.WARNING)
        self.message_user(request, _("%(count)s deliveries sent again.") % {"count": sent})
