"""Errors the match services and selectors raise, one class per stable code.

Every error carries ``code`` (stable, machine-readable), ``message`` (for a person),
``details`` (JSON-able, never hidden information) and ``http_status``, so REST and GraphQL
render the same failure the same way. Callers switch on ``code``, never on the message.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from infra.api_errors import ApiError


class GameServiceError(ApiError):
    """Base of every match-service error. An ``ApiError``: REST renders it as
    ``{"error": {"code", "message", "details"}}`` with status ``http_status``; GraphQL
    maps the same four fields."""

    status_code = 400
    default_code = "game_error"
    default_detail = _("The request could not be carried out.")

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        details: dict | None = None,
        http_status: int | None = None,
    ) -> None:
        super().__init__(message, code=code, details=details, status=http_status)

    @property
    def http_status(self) -> int:
        return self.status_code


# -- 400: bad input ---------------------------------------------------------------------------
class UnknownGame(GameServiceError):
    default_code = "unknown_game"
    status_code = 404
    default_detail = _("No such game.")


class InvalidOptions(GameServiceError):
    """Bad match options; ``code`` is "invalid_options" or "invalid_player_count"."""

    default_code = "invalid_options"
    default_detail = _("The match options are not valid for this game.")


class InvalidPlayerCount(InvalidOptions):
    default_code = "invalid_player_count"
    default_detail = _("This game cannot be played by that many players.")


class UnknownBotKind(GameServiceError):
    default_code = "unknown_bot"
    default_detail = _("No such bot kind.")


class InvalidTimeControl(GameServiceError):
    """A time control that is not a preset or a well-formed custom one; ``details.reason``
    says what (``unknown_preset``, ``negative_time``, ``out_of_range``, ...): raised by
    ``games.matches.time_controls.normalize`` when a match is created."""

    default_code = "invalid_time_control"
    default_detail = _("That time control is not valid.")


class UnknownPreset(InvalidTimeControl):
    default_code = "unknown_preset"
    default_detail = _("No time-control preset by that name.")


class InvalidSeat(GameServiceError):
    default_code = "invalid_seat"
    default_detail = _("No such seat in this match.")


class MalformedMove(GameServiceError):
    default_code = "malformed_move"
    default_detail = _("A move must be a JSON object.")


class IllegalMoveError(GameServiceError):
    """The engine refused the move; ``code`` and ``message`` are the engine's own."""

    default_code = "illegal_move"
    default_detail = _("The rules do not allow this move.")


class InvalidPly(GameServiceError):
    default_code = "invalid_ply"
    default_detail = _("The ply must be a whole number between 0 and the match's current ply.")


class InvalidRequest(GameServiceError):
    default_code = "invalid_request"
    default_detail = _("The request is not valid.")


# -- 401 / 403: who may do it -----------------------------------------------------------------
class AuthenticationRequired(GameServiceError):
    default_code = "not_authenticated"
    status_code = 401
    default_detail = _("Sign in (token or session) to do this.")


class NotAllowed(GameServiceError):
    default_code = "forbidden"
    status_code = 403
    default_detail = _("You are not allowed to do this.")


class NotSeated(GameServiceError):
    default_code = "not_seated"
    status_code = 403
    default_detail = _("You do not hold a seat in this match.")


# -- 404: unknown things ----------------------------------------------------------------------
class MatchNotFound(GameServiceError):
    default_code = "match_not_found"
    status_code = 404
    default_detail = _("No such match.")


# -- 409: the match is not in a state that allows it ------------------------------------------
class MatchNotOpen(GameServiceError):
    default_code = "match_not_open"
    status_code = 409
    default_detail = _("The match is no longer open for joining or leaving.")


class MatchFull(GameServiceError):
    default_code = "match_full"
    status_code = 409
    default_detail = _("Every seat of this match is taken.")


class SeatTaken(GameServiceError):
    default_code = "seat_taken"
    status_code = 409
    default_detail = _("That seat is taken.")


class AlreadySeated(GameServiceError):
    default_code = "already_seated"
    status_code = 409
    default_detail = _("You already hold a seat in this match.")


class MatchNotFull(GameServiceError):
    default_code = "match_not_full"
    status_code = 409
    default_detail = _("Seats are still open; fill them (or ask for bots) before starting.")


class MatchNotActive(GameServiceError):
    default_code = "match_not_active"
    status_code = 409
    default_detail = _("The match is not being played.")


class MatchOver(GameServiceError):
    default_code = "match_over"
    status_code = 409
    default_detail = _("The match is over.")


class NotYourTurn(GameServiceError):
    default_code = "not_your_turn"
    status_code = 409
    default_detail = _("Your seat does not owe a decision now.")


class StalePly(GameServiceError):
    default_code = "stale_ply"
    status_code = 409
    default_detail = _("The match has moved on since the ply you expected.")


class RulesVersionUnavailable(GameServiceError):
    """The match was played under a rules version no engine of this service plays
    (rules/versions.py): replaying it under today's rules would judge it wrongly.
    ``details``: ``game``, ``rules_version`` (the match's), ``runnable``."""

    default_code = "rules_version_unavailable"
    status_code = 409
    default_detail = _("This service no longer keeps the rules version this match was "
                       "played under, so it cannot replay it.")


class NotFinished(GameServiceError):
    default_code = "not_finished"
    status_code = 409
    default_detail = _("The match has no result yet.")


class UserNotFound(GameServiceError):
    default_code = "user_not_found"
    status_code = 404
    default_detail = _("No such user.")


class InvalidRecord(GameServiceError):
    """A game record that cannot be read (``details.field`` names the part at fault);
    a record that reads but does not add up is a verdict, not this error."""

    default_code = "invalid_record"
    default_detail = _("The game record is not valid.")


class InvitationRequired(GameServiceError):
    default_code = "invitation_required"
    status_code = 403
    default_detail = _("This match is private: take a seat with its invite code or by "
                      "accepting an invitation.")


class InvitationNotFound(GameServiceError):
    default_code = "invitation_not_found"
    status_code = 404
    default_detail = _("No such invitation for you.")


class InvitationClosed(GameServiceError):
    default_code = "invitation_closed"
    status_code = 409
    default_detail = _("This invitation was already answered or withdrawn.")


class AlreadyInvited(GameServiceError):
    default_code = "already_invited"
    status_code = 409
    default_detail = _("That player is already invited to this match.")


class RematchNotAllowed(GameServiceError):
    default_code = "rematch_not_allowed"
    status_code = 409
    default_detail = _("Only a finished match can be played again.")


class AlreadyWaiting(GameServiceError):
    default_code = "already_waiting"
    status_code = 409
    default_detail = _("You are already waiting for a quick match; cancel it first.")


class QuickMatchNotFound(GameServiceError):
    default_code = "quick_match_not_found"
    status_code = 404
    default_detail = _("No such quick-match request of yours.")


class QuickMatchClosed(GameServiceError):
    default_code = "quick_match_closed"
    status_code = 409
    default_detail = _("This quick-match request is no longer waiting.")
