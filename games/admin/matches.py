"""Django admin for matches: a list and a page that show a match at a glance (players,
to act, clocks, winner; games/admin/glance.py), the seats / log / incidents / results
read-only, actions that go through the services (abort, add time, hand a seat to a bot or
back, re-run scoring), and a replay page that steps through the plies.

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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin import glance as admin_glance
from games.admin.analysis_panel import analysis_context
from games.admin.status_names import match_status_name
from games.boards import selectors as board_selectors
from games.boards.errors import NoBoardDrawing
from games.clocks import services as clock_services
from games.matches import errors, scoring
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import ENDED_STATUSES, Match, MatchStatus, Move, Result, Seat
from games.matches.outcome import running_scores
from games.matches.permissions import can_manage_matches, can_view_replays
from games.matches.played_rules import engine_of, replayable
from games.matches.replay import iter_replay
from games.matches.selectors import INCIDENTS_WITH_USERS
from infra.numbers import whole_number
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
    fields = readonly_fields = ("replay_ply", "seat", "public_move", "created_at")
    ordering = ("ply",)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("match")

    @admin.display(description=gettext_lazy("ply"))
    def replay_ply(self, logged: Move) -> str:
        # The replay after this move: ply N is the state once moves 0..N-1 are played.
        url = reverse("admin:games_match_replay", args=[logged.match_id])
        return format_html('<a href="{}?ply={}">{}</a>', url, logged.ply + 1, logged.ply)

    @admin.display(description=gettext_lazy("move"))
    def public_move(self, logged: Move):
        # Secret moves (Hansa's kept cards, face-down cards) stay hidden from everyone,
        # admins included, while the match runs: the log as a spectator reads it.
        match = logged.match
        if match.status in ENDED_STATUSES:
            return logged.move
        if not replayable(match):  # no engine here knows what of it is secret
            return _("(hidden: rules version %(version)s is not kept)") % {
                "version": match.rules_version}
        return engine_of(match).redact_move(logged.move, logged.seat, None)


class IncidentInline(_ReadOnlyInline):
    model = Incident
    fields = readonly_fields = ("ply", "seat", "kind", "user", "actor", "bot_kind", "seconds",
                                "created_at")


class ResultInline(_ReadOnlyInline):
    model = Result
    fields = readonly_fields = ("seat", "score", "rank", "breakdown")


class HandSeatToBotForm(forms.Form):
    position = forms.IntegerField(min_value=0, label=gettext_lazy("Seat position"))
    bot_kind = forms.ChoiceField(choices=[(kind, kind) for kind in BOT_KINDS],
                                 label=gettext_lazy("Bot kind"))


class AddTimeForm(forms.Form):
    position = forms.IntegerField(min_value=0, label=gettext_lazy("Seat position"))
    seconds = forms.IntegerField(min_value=1, max_value=clock_services.MAX_ADDED_SECONDS,
                                 label=gettext_lazy("Seconds"))


class HandSeatBackForm(forms.Form):
    position = forms.IntegerField(min_value=0, label=gettext_lazy("Seat position"))


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "players_list", "status", "to_act", "clocks_list",
                    "winner", "ply", "created_at", "replay_link")
    list_filter = ("game", "status", "created_at")
    list_select_related = ("created_by",)  # one query for the page, not one per creator
    search_fields = ("=id", "created_by__username", "seats__user__username", "seed_commitment")
    date_hierarchy = "created_at"
    inlines = [SeatInline, ResultInline, IncidentInline, MoveInline]
    actions = ["abort_selected", "rerun_scoring", "add_time", "hand_seat_to_bot",
               "hand_seat_back"]
    # The seed and the state are hidden information until the end: not shown here either.
    fields = readonly_fields = (
        "outcome", "game", "time_control", "options", "players_read_spectator_chat",
        "players", "status", "ply",
        "seed_commitment", "revealed_seed", "rules_version", "created_by", "created_at",
        "updated_at", "started_at", "finished_at", "abort_reason", "replay_link",
    )

    def has_add_permission(self, request):
        return False  # matches are created through the API or `manage.py play_bots`

    def has_change_permission(self, request, obj=None):
        return False  # everything is read-only; actions and the replay page remain

    def get_queryset(self, request):
        # Names (a taken-over seat's player from its incidents), winners and clocks for
        # every row from a fixed number of queries, not per row.
        return super().get_queryset(request).prefetch_related(
            "seats__user", INCIDENTS_WITH_USERS, "results")

    @admin.display(description=gettext_lazy("result"))
    def outcome(self, match: Match) -> str:
        return admin_glance.outcome_html(match)

    @admin.display(description=gettext_lazy("players"))
    def players_list(self, match: Match) -> str:
        return admin_glance.players_text(match)

    @admin.display(description=gettext_lazy("to act"))
    def to_act(self, match: Match) -> str:
        return admin_glance.to_act_text(match)

    @admin.display(description=gettext_lazy("clocks"))
    def clocks_list(self, match: Match) -> str:
        return admin_glance.clocks_text(match)

    @admin.display(description=gettext_lazy("winner"))
    def winner(self, match: Match) -> str:
        return admin_glance.winners_text(match)

    @admin.display(description=gettext_lazy("seed"))
    def revealed_seed(self, match: Match) -> str:
        return match.seed if match.status in ENDED_STATUSES else _("(hidden until the end)")

    @admin.display(description=gettext_lazy("replay"))
    def replay_link(self, match: Match) -> str:
        if match.state is None:
            return "-"
        url = reverse("admin:games_match_replay", args=[match.pk])
        return format_html('<a href="{}">{}</a>', url, _("replay"))

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
                self.message_user(request, _("match #%(id)s: %(problem)s")
                                  % {"id": match.pk, "problem": exc.message}, messages.WARNING)
        if done:
            self.message_user(request, _("%(done)s: %(count)s match(es).")
                              % {"done": label, "count": done}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Abort the selected matches"), permissions=["manage"])
    def abort_selected(self, request, queryset):
        self._each(request, queryset, _("Aborted"), lambda match: match_services.abort_match(
            user=request.user, match_id=match.pk, reason=f"aborted by admin {request.user}"))

    @admin.action(description=gettext_lazy("Re-run scoring (rebuild from the log)"),
                  permissions=["manage"])
    def rerun_scoring(self, request, queryset):
        def rescore(match):
            if not scoring.score_match(match_id=match.pk, rescore=True):
                raise errors.NotFinished(_("its game is not over"))

        self._each(request, queryset, _("Scored"), rescore)

    def _with_form(self, request, queryset, form_class, action, title, label, call):
        """An action that asks for a form first, then calls ``call(match, data)``."""
        if "apply" in request.POST:
            form = form_class(request.POST)
            if form.is_valid():
                self._each(request, queryset, label,
                           lambda match: call(match, form.cleaned_data))
                return None
        else:
            form = form_class()
        return TemplateResponse(request, "admin/games/match/seat_action.html", {
            **self.admin_site.each_context(request),
            "title": title,
            "form": form,
            "action": action,
            "matches": queryset,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        })

    @admin.action(description=gettext_lazy("Add time to a seat's clock"), permissions=["manage"])
    def add_time(self, request, queryset):
        return self._with_form(
            request, queryset, AddTimeForm, "add_time", _("Add time to a seat's clock"),
            _("Time added"), lambda match, data: clock_services.add_time(
                user=request.user, match_id=match.pk, position=data["position"],
                seconds=data["seconds"]))

    @admin.action(description=gettext_lazy("Hand a seat to a bot"), permissions=["manage"])
    def hand_seat_to_bot(self, request, queryset):
        # the service decides under the lock: a player's seat in a running match is a
        # takeover (it can be handed back), any other seat goes to the bot for good
        def hand_over(match, data):
            clock_services.hand_seat_to_bot(user=request.user, match_id=match.pk,
                                            position=data["position"],
                                            bot_kind=data["bot_kind"])

        return self._with_form(request, queryset, HandSeatToBotForm, "hand_seat_to_bot",
                               _("Hand a seat to a bot"), _("Seat handed to a bot"), hand_over)

    @admin.action(description=gettext_lazy("Hand a seat back to its player"),
                  permissions=["manage"])
    def hand_seat_back(self, request, queryset):
        return self._with_form(
            request, queryset, HandSeatBackForm, "hand_seat_back",
            _("Hand a seat back to its player"), _("Seat handed back"),
            lambda match, data: clock_services.hand_seat_back(
                user=request.user, match_id=match.pk, position=data["position"]))

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
            self.message_user(request, _("The match has not started."), messages.WARNING)
            return redirect(reverse("admin:games_match_change", args=[match.pk]))
        if not replayable(match):  # rules/versions.py: no engine here plays its rules
            self.message_user(request, _("This match was played under %(game)s rules version "
                                         "%(version)s, which this service no longer keeps: it "
                                         "cannot be replayed.")
                              % {"game": match.game, "version": match.rules_version or "?"},
                              messages.WARNING)
            return redirect(reverse("admin:games_match_change", args=[match.pk]))
        asked = whole_number(request.GET.get("ply"))  # the API's one number rule
        ply = match.ply if asked is None else min(asked, match.ply)
        engine = engine_of(match)
        ended = match.status in ENDED_STATUSES
        _step, seat, move, state = next(step for step in iter_replay(match) if step[0] == ply)
        spectator_view = engine.view(state, None)
        shown = engine.to_json(state) if ended else spectator_view
        # The drawing is the spectator's while the match runs, everything once it has
        # ended (games/boards, as the API's board.svg draws it for a spectator); every
        # text in it is escaped, so its SVG may be marked safe.
        try:
            board_svg = board_selectors.board_svg(match, None, ply, state=state)
        except NoBoardDrawing:
            board_svg = None
        if not ended and seat is not None:
            move = engine.redact_move(move, seat, None)
        names = admin_glance.seat_names(match)
        scores = running_scores(engine, state, match.players)
        final = ply == match.ply and match.status == MatchStatus.FINISHED
        if final:  # the stored result, as the board's final panel shows it (not running)
            scores = [row.score for row in Result.objects.filter(match=match).order_by("seat")]
        context = {
            **self.admin_site.each_context(request),
            "title": _("Replay of match #%(id)s (%(game)s) - ply %(ply)s of %(plies)s") % {
                "id": match.pk, "game": match.game, "ply": ply, "plies": match.ply},
            "opts": self.model._meta,
            "match": match,
            "status_text": match_status_name(match.status),
            "ply": ply,
            "plies": list(range(match.ply + 1)),
            "previous_ply": ply - 1 if ply > 0 else None,
            "next_ply": ply + 1 if ply < match.ply else None,
            "last_move": move,
            "last_seat": seat,
            "last_name": names.get(seat),
            "to_act": [names[position] for position in engine.to_act(state)],
            "scores": [f"{names[position]} {score}" for position, score in enumerate(scores)],
            "final_scores": final,
            "incidents": [
                _("%(kind)s: %(player)s (seat %(seat)s) at ply %(ply)s") % {
                    "kind": row.get_kind_display(),
                    "player": row.user.username if row.user else names[row.seat],
                    "seat": row.seat, "ply": row.ply}
                for row in Incident.objects.filter(match=match, ply__lte=ply)
                .select_related("user")],
            "names": names,
            "legend": admin_glance.drawing_legend(match.game),
            "ended": ended,
            "state_json": json.dumps(shown, indent=2, sort_keys=True),
            "board_svg": mark_safe(board_svg) if board_svg else None,  # noqa: S308
            "move_json": json.dumps(move, sort_keys=True) if move is not None else "",
        }
        if match.status == MatchStatus.FINISHED:  # analyses are of finished matches only
            context.update(analysis_context(match, engine, state, ply, names))
        return TemplateResponse(request, "admin/games/match/replay.html", context)
