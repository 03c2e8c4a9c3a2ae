"""Errors of clocks, resignation and takeover, one class per stable code (as
games.matches.errors). The time-control errors a match's creation raises live with the
match (``games.matches.errors``) and are named here too, for the callers that catch them
as clock errors."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.matches.errors import GameServiceError, InvalidTimeControl, UnknownPreset  # noqa: F401


class InvalidTime(GameServiceError):
    default_code = "invalid_time"
    default_detail = _("The time must be a whole number of seconds, more than 0.")


class NoClock(GameServiceError):
    default_code = "no_clock"
    status_code = 409
    default_detail = _("This match is played without a clock.")


class NotYourSeat(GameServiceError):
    default_code = "not_your_seat"
    status_code = 403
    default_detail = _("That seat is not yours.")


class AlreadyResigned(GameServiceError):
    default_code = "already_resigned"
    status_code = 409
    default_detail = _("This seat has already resigned or forfeited.")


class NothingToReclaim(GameServiceError):
    default_code = "nothing_to_reclaim"
    status_code = 409
    default_detail = _("No seat of yours in this match is held by a bot for you.")
