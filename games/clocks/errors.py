"""Errors of clocks, resignation and takeover, one class per stable code (as
games.matches.errors)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.matches.errors import GameServiceError


class InvalidTimeControl(GameServiceError):
    """A time control that is not a preset or a well-formed custom one; ``details.reason``
    says what (``unknown_preset``, ``negative_time``, ``out_of_range``, ...)."""

    default_code = "invalid_time_control"
    default_detail = _("That time control is not valid.")


class UnknownPreset(InvalidTimeControl):
    default_code = "unknown_preset"
    default_detail = _("No time-control preset by that name.")


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
