"""The chat moderation queue in the admin (docs/chat.md "Moderation"): the reports, open
ones first, and each report's page, which shows the message in its room's context (the
ten messages before and after, deleted and hidden ones marked), the author's time-outs
and bans in force and what was done about the report, with one form for the moderator's
actions: hide the message, time the author out, ban them, dismiss the report, clear the
author's time-out or ban (appeal upheld). Every action goes through
games.chat.moderation.actions, which logs it."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.chat.moderation import actions
from games.chat.moderation.models import ChatReport
from games.chat.moderation.selectors import context_of, report_queue, sanctions_in_force
from infra.numbers import InvalidNumber, parse_whole_number

TIME_OUT_LABELS = {"10m": gettext_lazy("10 minutes"), "1h": gettext_lazy("1 hour"),
                   "24h": gettext_lazy("24 hours"), "7d": gettext_lazy("7 days"),
                   "30d": gettext_lazy("30 days")}


class ModerationForm(forms.Form):
    action = forms.ChoiceField(label=gettext_lazy("Action"), choices=[
        ("hide", gettext_lazy("Hide the message")),
        ("time_out", gettext_lazy("Time the author out of chat")),
        ("ban", gettext_lazy("Ban the author from chat")),
        ("dismiss", gettext_lazy("Dismiss the report")),
        ("clear", gettext_lazy("Clear the author's time-out or ban (appeal upheld)")),
    ])
    length = forms.ChoiceField(label=gettext_lazy("Time-out length"), initial="24h",
                               choices=[(key, TIME_OUT_LABELS[key]) for key in actions.TIME_OUTS],
                               help_text=gettext_lazy("For a time-out only."))
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=1000,
                             widget=forms.Textarea(attrs={"rows": 2}),
                             help_text=gettext_lazy("Recorded in the moderation log."))


def _act(report: ChatReport, moderator, data: dict) -> None:
    action, reason = data["action"], data["reason"]
    if action == "hide":
        actions.hide_message(report, moderator, reason)
    elif action == "time_out":
        actions.time_out(report, moderator, data["length"], reason)
    elif action == "ban":
        actions.ban(report, moderator, reason)
    elif action == "dismiss":
        actions.dismiss(report, moderator, reason)
    else:
        actions.clear_sanctions(report.message.author_id, moderator, reason, report=report)


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "reason", "author", "reported_text", "reporter",
                    "created_at")
    list_display_links = ("id", "reported_text")
    list_filter = ("status", "reason")
    search_fields = ("message__author__username", "reporter__username")
    list_select_related = ("message__author", "reporter")

    def get_queryset(self, request):
        return report_queue()

    def get_ordering(self, request):
        return ["queue_open", "queue_open_age", "-id"]  # open first: report_queue()

    def has_add_permission(self, request) -> bool:
        return False  # a report is filed by a reader, over the API

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # what was reported, and what was done about it, stays

    @admin.display(description=gettext_lazy("author"))
    def author(self, report: ChatReport):
        return report.message.author

    @admin.display(description=gettext_lazy("message"))
    def reported_text(self, report: ChatReport) -> str:
        text = report.message.text
        return text if len(text) <= 60 else text[:59] + "…"

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The report's page: the message in context and the moderator's form."""
        try:  # within bigint: a larger id would fail in PostgreSQL, not be missing
            report_pk = parse_whole_number(object_id, "id", low=1)
        except InvalidNumber:
            raise Http404() from None
        report = get_object_or_404(report_queue(), pk=report_pk)
        if not self.has_view_permission(request, report):
            raise PermissionDenied
        form = ModerationForm()
        if request.method == "POST":
            if not self.has_change_permission(request, report):
                raise PermissionDenied
            form = ModerationForm(request.POST)
            if form.is_valid():
                try:
                    _act(report, request.user, form.cleaned_data)
                except actions.ModerationRefused as refused:
                    self.message_user(request, str(refused.args[0]), messages.ERROR)
                else:
                    self.message_user(request, _("Done: %(action)s.") % {
                        "action": dict(form.fields["action"].choices)[
                            form.cleaned_data["action"]]}, messages.SUCCESS)
                    return redirect(request.path)
        message = report.message
        return TemplateResponse(request, "admin/games/chatreport/moderate.html", {
            **self.admin_site.each_context(request),
            "title": _("Report #%(id)s") % {"id": report.pk},
            "opts": self.model._meta,
            "report": report,
            "message": message,
            "context": context_of(message),
            "sanctions": list(sanctions_in_force(message.author_id))
            if message.author_id else [],
            "log": report.actions.select_related("moderator").order_by("id"),
            "form": form,
            "may_act": self.has_change_permission(request, report),
        })
