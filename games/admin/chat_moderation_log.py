"""The moderation log and the chat sanctions in the admin, read-only: what moderators did
(who, when, why, what) is changed by no one; a sanction ends by its time or by a
moderator's "clear" on a report's page (games/admin/chat_moderation.py), which the log
records."""

from __future__ import annotations

from django.contrib import admin

from games.chat.moderation.models import ChatSanction, ModerationAction


class _ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ModerationAction)
class ModerationActionAdmin(_ReadOnlyAdmin):
    list_display = ("created_at", "kind", "moderator", "target", "report", "message",
                    "until", "reason")
    list_filter = ("kind",)
    search_fields = ("moderator__username", "target__username", "reason")
    list_select_related = ("moderator", "target", "report")


@admin.register(ChatSanction)
class ChatSanctionAdmin(_ReadOnlyAdmin):
    list_display = ("id", "user", "kind", "created_at", "until", "cleared_at", "reason")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
