"""Django admin for matches: filters and search, the seats / log / results read-only,
actions that go through the services (abort, hand a seat to a bot, re-run scoring), and a
replay page that steps through the plies.

The admin never writes a match by itself: every change is a service call, so the same
checks, locks and follow-ups apply as for the API.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games import errors, services
from games.models import ENDED_STATUSES, Match, Move, Result, Seat
from games.permissions import can_manage_matches, can_view_replays
from games.replay import iter_replay
from rules import get_engine
from rules.bots import BOT_KINDS


class _ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(_ReadOnlyInline):
    model = Seat
    fields = readonly_fields = ("position", "user", "bot_kind", "joined_at")


class MoveInline(_ReadOnlyInline):
    model = Move
    fields = readonly_fields = ("ply", "seat", "public_move", "created_at")
    ordering = ("ply",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("match")

    @admin.display(description="move")
    def public_move(self, logged: Move):
        # Secret moves (Hansa's kept cards, face-down cards) stay hidden from everyone,
        # admins included, while the match runs: the log as a spectator reads it.
        match = logged.match
        if match.status in ENDED_STATUSES:
            return logged.move
        return get_engine(match.game).redact_move(logged.move, logged.seat, None)


class ResultInline(_ReadOnlyInline):
    model = Result
    fields = readonly_fields = ("seat", "score", "rank", "breakdown")


class HandSeatToBotForm(forms.Form):
    position = forms.IntegerField(min_value=0)
    bot_kind = forms.ChoiceField(choices=[(kind, kind) for kind in BOT_KINDS])


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "players", "ply", "created_by", "created_at",
                    "replay_link")
    list_filter = ("game", "status", "created_at")
    list_select_related = ("created_by",)  # one query for the page, not one per creator
    search_fields = ("=id", "created_by__username", "seats__user__username", "seed_commitment")
    date_hierarchy = "created_at"
    inlines = [SeatInline, MoveInline, ResultInline]
    actions = ["abort_selected", "rerun_scoring", "hand_seat_to_bot"]
    # The seed and the state are hidden information until the end: not shown here either.
    fields = readonly_fields = (
        "game", "options", "players", "status", "ply", "seed_commitment", "revealed_seed",
        "rules_version", "created_by", "created_at", "updated_at", "started_at",
        "finished_at", "abort_reason", "replay_link",
    )

    def has_add_permission(self, request):
        return False  # matches are created through the API or `manage.py play_bots`

    def has_change_permission(self, request, obj=None):
        return False  # everything is read-only; actions and the replay page remain

    @admin.display(description="seed")
    def revealed_seed(self, match: Match) -> str:
        return match.seed if match.status in ENDED_STATUSES else "(hidden until the end)"

    @admin.display(description="replay")
    def replay_link(self, match: Match) -> str:
        if match.state is None:
            return "-"
        url = reverse("admin:games_match_replay", args=[match.pk])
        return format_html('<a href="{}">replay</a>', url)

    # -- actions (each one a service call per match) ---------------------------------------
    def has_manage_permission(self, request) -> bool:
        # The actions need games.manage_match, as the services they call (not is_staff).
        return can_manage_matches(request.user)

    def _each(self, request, queryset, label, call):
        done = 0
        for match in queryset:
            try:
                call(match)
                done += 1
            except errors.GameServiceError as exc:
                self.message_user(request, f"match #{match.pk}: {exc.message}", messages.WARNING)
        if done:
            self.message_user(request, f"{label}: {done} match(es).", messages.SUCCESS)

    @admin.action(description="Abort the selected matches", permissions=["manage"])
    def abort_selected(self, request, queryset):
        self._each(request, queryset, "Aborted", lambda match: services.abort_match(
            user=request.user, match_id=match.pk, reason=f"aborted by admin {request.user}"))

    @admin.action(description="Re-run scoring (rebuild from the log)", permissions=["manage"])
    def rerun_scoring(self, request, queryset):
        def rescore(match):
            if not services.score_match(match_id=match.pk, rescore=True):
                raise errors.NotFinished("its game is not over")

        self._each(request, queryset, "Scored", rescore)

    @admin.action(description="Hand a seat to a bot", permissions=["manage"])
    def hand_seat_to_bot(self, request, queryset):
        if "apply" in request.POST:
            form = HandSeatToBotForm(request.POST)
            if form.is_valid():
                self._each(request, queryset, "Seat handed to a bot",
                           lambda match: services.replace_seat_with_bot(
                               user=request.user, match_id=match.pk,
                               position=form.cleaned_data["position"],
                               bot_kind=form.cleaned_data["bot_kind"]))
                return None
        else:
            form = HandSeatToBotForm()
        return TemplateResponse(request, "admin/games/match/hand_seat_to_bot.html", {
            **self.admin_site.each_context(request),
            "title": "Hand a seat to a bot",
            "form": form,
            "matches": queryset,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        })

    # -- the replay page ---------------------------------------------------------------------
    def get_urls(self):
        replay = self.admin_site.admin_view(self.replay_view)
        return [
            path("<int:match_id>/replay/", replay, name="games_match_replay"),
        ] + super().get_urls()

    def replay_view(self, request, match_id: int):
        """Step through the plies: ``?ply=N`` shows the state after N moves. While the
        match runs only the spectator view is shown (hidden information stays hidden
        from everyone, admins included); once it has ended, the full state."""
        if not can_view_replays(request.user):
            raise PermissionDenied  # staff alone is not enough: games.view_match
        match = get_object_or_404(Match, pk=match_id)
        if match.state is None:
            self.message_user(request, "The match has not started.", messages.WARNING)
            return redirect(reverse("admin:games_match_change", args=[match.pk]))
        try:
            ply = min(max(int(request.GET.get("ply", match.ply)), 0), match.ply)
        except ValueError:
            ply = match.ply
        engine = get_engine(match.game)
        ended = match.status in ENDED_STATUSES
        _step, seat, move, state = next(step for step in iter_replay(match) if step[0] == ply)
        spectator_view = engine.view(state, None)
        shown = engine.to_json(state) if ended else spectator_view
        # The drawing is always of the spectator view (everything once the game is over):
        # the renderer escapes every text it inserts, so its SVG may be marked safe.
        board_svg = engine.render_svg(spectator_view)
        if not ended and seat is not None:
            move = engine.redact_move(move, seat, None)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Replay of match #{match.pk} ({match.game}) - ply {ply} of {match.ply}",
            "opts": self.model._meta,
            "match": match,
            "ply": ply,
            "plies": list(range(match.ply + 1)),
            "previous_ply": ply - 1 if ply > 0 else None,
            "next_ply": ply + 1 if ply < match.ply else None,
            "last_move": move,
            "last_seat": seat,
            "to_act": engine.to_act(state),
            "scores": shown.get("scores") if isinstance(shown, dict) else None,
            "ended": ended,
            "state_json": json.dumps(shown, indent=2, sort_keys=True),
            "board_svg": mark_safe(board_svg) if board_svg else None,  # noqa: S308
            "move_json": json.dumps(move, sort_keys=True) if move is not None else "",
        }
        return TemplateResponse(request, "admin/games/match/replay.html", context)
