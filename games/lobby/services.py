"""The only writers of private matches, invitations and rematches.

Seats are still taken through ``games.matches.services.join_match``, once the lobby has
checked who may sit (``join_match`` here: a private match only by invitation or code), and
matches created through ``games.matches.services.create_match``: this module adds who may
sit, never how sitting works.
Every function is atomic: an error means nothing was written.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.feed import services as feed
from games.lobby.models import Invitation, InvitationStatus, PrivateMatch, Rematch
from games.matches import errors, guards
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus, Seat
from games.matches.parsing import parse_match_id
from games.matches.seat_players import players_by_seat
from games.notifications import fanout as player_notifications
from games.webhooks import events as webhook_events
from infra.numbers import BIGINT_MAX, whole_number

#: the abort reason of an open match whose creator's account was erased
CREATOR_LEFT = "its creator's account was erased"
#: a private match invites at most its other seats' worth of people; this bounds a request
MAX_INVITEES = 16
CODE_BYTES = 12  # 16 URL-safe characters


def _invitees(inviter, usernames: Any) -> list:
    """The users named in ``usernames`` (a list of distinct names, not the inviter).
    Raises InvalidRequest (400) naming the first bad entry."""
    if not isinstance(usernames, list) or len(usernames) > MAX_INVITEES:
        raise errors.InvalidRequest(_("invite must be a list of at most %(count)s usernames.")
                                    % {"count": MAX_INVITEES}, details={"field": "invite"})
    if not all(isinstance(name, str) and 0 < len(name) <= 150 for name in usernames):
        raise errors.InvalidRequest(_("Each invitee must be a username."),
                                    details={"field": "invite"})
    if len(set(usernames)) != len(usernames):
        raise errors.InvalidRequest(_("Each invitee may be named once."),
                                    details={"field": "invite"})
    users = {user.username: user for user in
             get_user_model().objects.filter(username__in=usernames, is_active=True)}
    for name in usernames:
        if name not in users:
            raise errors.InvalidRequest(_("No user called %(name)r.") % {"name": name[:40]},
                                        code="unknown_user",
                                        details={"field": "invite", "username": name[:40]})
        if users[name].pk == inviter.pk:
            raise errors.InvalidRequest(_("You cannot invite yourself."),
                                        details={"field": "invite"})
    return [users[name] for name in usernames]


def _invite_locked(match: Match, inviter, invitees: list, *, positions=None,
                   is_rematch: bool = False) -> list[Invitation]:
    seated = set(match.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    already = set(match.invitations.values_list("invitee_id", flat=True))
    free = guards.free_positions(match)  # one query (this asked once per position)
    for invitee in invitees:
        if invitee.pk in seated:
            raise errors.AlreadySeated(_("%(username)s already holds a seat.")
                                       % {"username": invitee.username},
                                       details={"username": invitee.username})
        if invitee.pk in already:
            raise errors.AlreadyInvited(details={"username": invitee.username})
    if len(invitees) > len(free):
        raise errors.MatchFull(_("Only %(count)s seat(s) are free.") % {"count": len(free)},
                               details={"free_seats": len(free)})
    invitations = [
        Invitation.objects.create(match=match, inviter=inviter, invitee=invitee,
                                  is_rematch=is_rematch,
                                  position=positions[index] if positions else None)
        for index, invitee in enumerate(invitees)
    ]
    for invitation in invitations:
        feed.announce_invitation(invitation)
        webhook_events.invitation_sent(invitation)
        player_notifications.invitation_sent(invitation, match.game)  # push, e-mail (issue 42)
    return invitations


@transaction.atomic
def create_private_match(*, user, game: str, players: int, options: dict | None = None,
                         bot_seats=None, creator_seat: int | None = None,
                         invite: Any = None, time_control: Any = None,
                         players_read_spectator_chat: Any = None) -> tuple[Match, str]:
    """Create an unlisted match (``games.matches.services.create_match`` rules), seat its creator
    and invite ``invite`` (usernames), with ``time_control`` as a listed match's (none by
    default). Returns the match and its invite code. Its players
    read the spectators' chat room only if the creator says so (off by default: the
    onlookers of a private match are the players' friends; games/matches/spectator_chat.py).
    Raises what create_match raises (InvalidTimeControl, unknown preset too),
    InvalidRequest / unknown_user (400), MatchFull."""
    guards.require_user(user)
    invitees = _invitees(user, invite if invite is not None else [])
    match = match_services.create_match(user=user, game=game, players=players, options=options,
                                        bot_seats=bot_seats, creator_seat=creator_seat,
                                        time_control=time_control,
                                        players_read_spectator_chat=False
                                        if players_read_spectator_chat is None
                                        else players_read_spectator_chat)
    code = secrets.token_urlsafe(CODE_BYTES)
    PrivateMatch.objects.create(match=match, invite_code=code)
    match = Match.objects.select_for_update().get(pk=match.pk)
    _invite_locked(match, user, invitees)
    return match, code


def _lock_open_match(match_id: Any) -> Match:
    match = guards.lock_match(match_id)
    if match.status != MatchStatus.OPEN:
        raise errors.MatchNotOpen(details={"status": match.status})
    return match


@transaction.atomic
def invite(*, user, match_id: Any, usernames: Any) -> list[Invitation]:
    """Invite people to an open match you sit in or created (public or private).
    Raises MatchNotFound, NotAllowed, MatchNotOpen, InvalidRequest, AlreadySeated,
    AlreadyInvited, MatchFull."""
    guards.require_user(user)
    match = _lock_open_match(match_id)
    if match.created_by_id != user.pk and not match.seats.filter(user=user).exists():
        raise errors.NotAllowed(_("Only the match's creator or its players can invite."))
    return _invite_locked(match, user, _invitees(user, usernames))


def _own_invitation(user, invitation_id: Any) -> Invitation:
    number = whole_number(invitation_id)
    if number is None or not 1 <= number <= BIGINT_MAX:
        raise errors.InvitationNotFound()
    try:
        return Invitation.objects.select_for_update().get(pk=number, invitee=user)
    except Invitation.DoesNotExist:
        raise errors.InvitationNotFound(details={"invitation_id": number}) from None


def join_match(*, user, match_id: Any, position: Any = None) -> Seat:
    """Take an open seat of a match anyone may join (REST and GraphQL ``join``): a private
    match takes only the people it invited or who hold its code (``accept_invitation``,
    ``join_by_code``). Raises InvitationRequired, and ``games.matches.services.join_match``'s
    errors."""
    guards.require_user(user)
    match_pk = parse_match_id(match_id)
    if PrivateMatch.objects.filter(match_id=match_pk).exists():
        raise errors.InvitationRequired()
    return match_services.join_match(user=user, match_id=match_pk, position=position)


@transaction.atomic
def accept_invitation(*, user, invitation_id: Any) -> Seat:
    """Take the seat an invitation offers (its reserved position, or the lowest free
    one); the match starts when its last seat is taken. Raises InvitationNotFound,
    InvitationClosed, and join_match's errors (MatchNotOpen, MatchFull...)."""
    guards.require_user(user)
    invitation = _own_invitation(user, invitation_id)
    if invitation.status != InvitationStatus.PENDING:
        raise errors.InvitationClosed(details={"status": invitation.status})
    seat = match_services.join_match(user=user, match_id=invitation.match_id,
                                     position=invitation.position)
    invitation.status = InvitationStatus.ACCEPTED
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["status", "responded_at"])
    return seat


@transaction.atomic
def decline_invitation(*, user, invitation_id: Any) -> Invitation:
    """Decline an invitation. A declined rematch cannot be complete any more: it is
    aborted (its other invitations withdrawn). Raises InvitationNotFound,
    InvitationClosed."""
    guards.require_user(user)
    invitation = _own_invitation(user, invitation_id)
    if invitation.status != InvitationStatus.PENDING:
        raise errors.InvitationClosed(details={"status": invitation.status})
    invitation.status = InvitationStatus.DECLINED
    invitation.responded_at = timezone.now()
    invitation.save(update_fields=["status", "responded_at"])
    if invitation.is_rematch:
        match = Match.objects.select_related("created_by").get(pk=invitation.match_id)
        if match.status == MatchStatus.OPEN:
            match_services.abort_match(user=match.created_by, match_id=match.pk,
                                       reason=_declined_by(user.username))
            Invitation.objects.filter(match=match, status=InvitationStatus.PENDING).update(
                status=InvitationStatus.WITHDRAWN, responded_at=timezone.now())
    return invitation


@transaction.atomic
def join_by_code(*, user, invite_code: Any, position: Any = None) -> Seat:
    """Take a seat of the private match ``invite_code`` opens. Raises InvalidRequest
    (malformed), InvitationNotFound (no such code, 404) and join_match's errors."""
    guards.require_user(user)
    if not isinstance(invite_code, str) or not 0 < len(invite_code) <= 32:
        raise errors.InvalidRequest("invite_code must be a string of at most 32 "
                                    "characters.", details={"field": "invite_code"})
    private = PrivateMatch.objects.filter(invite_code=invite_code).first()
    if private is None:
        raise errors.InvitationNotFound(_("No private match has this invite code."))
    seat = match_services.join_match(user=user, match_id=private.match_id, position=position)
    Invitation.objects.filter(match_id=private.match_id, invitee=user,
                              status=InvitationStatus.PENDING).update(
        status=InvitationStatus.ACCEPTED, responded_at=timezone.now())
    return seat


@transaction.atomic
def propose_rematch(*, user, match_id: Any) -> Match:
    """The rematch of a finished match you played: the same game, options and seats (bots
    at their positions, you at yours), private, every other person invited to their old
    seat; it starts when all have accepted. A second proposal returns the same rematch.
    Raises MatchNotFound, NotSeated, RematchNotAllowed."""
    guards.require_user(user)
    original = guards.lock_match(match_id)
    seats = list(original.seats.select_related("user"))
    people = _people_of(original, seats)
    mine_position = next((position for position, person in people.items()
                          if person.pk == user.pk), None)
    if mine_position is None:
        raise errors.NotSeated(_("Only a player of the match can propose a rematch."))
    if original.status != MatchStatus.FINISHED:
        raise errors.RematchNotAllowed(details={"status": original.status})
    existing = Rematch.objects.filter(original=original).select_related("match").first()
    if existing is not None:
        return existing.match
    others = [(position, person) for position, person in people.items()
              if person.pk != user.pk]
    match = match_services.create_match(
        user=user, game=original.game, players=original.players, options=original.options,
        bot_seats={seat.position: seat.bot_kind for seat in seats
                   if seat.position not in people},
        creator_seat=mine_position, time_control=_same_time_control(original.time_control),
        # the same table, the same chat: the rematch keeps the original's choice
        players_read_spectator_chat=original.players_read_spectator_chat,
    )
    PrivateMatch.objects.create(match=match, invite_code=secrets.token_urlsafe(CODE_BYTES))
    Rematch.objects.create(original=original, match=match, proposed_by=user)
    match = Match.objects.select_for_update().get(pk=match.pk)
    if others:
        _invite_locked(match, user, [person for _position, person in others],
                       positions=[position for position, _person in others],
                       is_rematch=True)
    return match


def _people_of(match: Match, seats: list[Seat]) -> dict:
    """Position -> the person who played it (games.matches.seat_players: its user, or the
    player a bot took it over from); seats bots held from the start are left out."""
    players = players_by_seat(seats, match.incidents.order_by("id"))
    users = get_user_model().objects.in_bulk(set(players.values()))
    return {position: users[user_id] for position, user_id in players.items()}


def _same_time_control(stored: dict) -> dict | None:
    """The request that recreates a match's stored time control (None: no clock)."""
    if not stored or stored.get("kind") == "none":
        return None
    if stored.get("preset") == "custom":
        return {key: value for key, value in stored.items() if key != "preset"}
    return {key: value for key, value in stored.items()
            if key in ("preset", "timeout_policy", "takeover_bot")}


# -- an erased account (games/leaving) --------------------------------------------------------
def withdraw_for_leaver(user, former_username: str) -> None:
    """``user``'s account was erased: every pending invitation it received or sent is
    withdrawn, the open matches it created are aborted (nobody else may start them), and
    the abort reason of a rematch it declined names the tombstone, not ``former_username``.
    Its seats in other open matches are the caller's (``games.leaving.services``)."""
    now = timezone.now()
    for match_id in (Match.objects.filter(status=MatchStatus.OPEN, created_by=user)
                     .order_by("pk").values_list("pk", flat=True)):
        match_services.abort_match(user=user, match_id=match_id, reason=CREATOR_LEFT)
        Invitation.objects.filter(match_id=match_id, status=InvitationStatus.PENDING).update(
            status=InvitationStatus.WITHDRAWN, responded_at=now)
    Invitation.objects.filter(Q(invitee=user) | Q(inviter=user),
                              status=InvitationStatus.PENDING).update(
        status=InvitationStatus.WITHDRAWN, responded_at=now)
    # the reason decline_invitation wrote, the one place a name went into a match's row
    match_services.rename_abort_reason(_declined_by(former_username),
                                       _declined_by(user.username))


def _declined_by(username: str) -> str:
    return f"rematch declined by {username}"
