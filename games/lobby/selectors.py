"""Reads of the lobby: which matches a reader may see listed, a reader's invitations,
a private match's invite code (for its players only)."""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.lobby.models import Invitation, InvitationStatus, PrivateMatch, Rematch
from games.matches import errors
from games.matches.models import Match
from games.matches.seat_players import seats_played_by
from games.matches.selectors import filter_matches


def listed_for(matches: QuerySet[Match], viewer) -> QuerySet[Match]:
    """``matches`` without the private ones ``viewer`` has no part in: a private match
    is listed only to its creator, its players and the people invited to it. Every list
    of matches (REST, GraphQL, profiles, record exports) goes through this."""
    private = Exists(PrivateMatch.objects.filter(match=OuterRef("pk")))
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return matches.filter(~private)
    # "its players": also one whose seat a bot took over or finished for them (a timeout,
    # a resignation: games.matches.seat_players), so their own record export keeps it
    return matches.filter(
        ~private
        | Q(created_by=viewer)
        | Exists(seats_played_by(viewer).filter(match=OuterRef("pk")))
        | Exists(Invitation.objects.filter(match=OuterRef("pk"), invitee=viewer))
    )


def list_matches(*, user=None, **filters) -> QuerySet[Match]:
    """The matches ``user`` may see listed (``listed_for``), newest first, narrowed by
    ``games.matches.selectors.filter_matches``' filters (game, status, mine, open_seats,
    my_turn) and raising its errors. Every list of matches shown to a reader uses this."""
    return listed_for(filter_matches(user=user, **filters), user)


def is_private(match: Match) -> bool:
    return PrivateMatch.objects.filter(match_id=match.pk).exists()


def invitation_row(invitation: Invitation) -> dict:
    return {
        "id": invitation.pk,
        "match_id": invitation.match_id,
        "game": invitation.match.game,
        "players": invitation.match.players,
        "match_status": invitation.match.status,
        "inviter": invitation.inviter.username if invitation.inviter else None,
        "invitee": invitation.invitee.username,
        "position": invitation.position,
        "status": invitation.status,
        "is_rematch": invitation.is_rematch,
        "created_at": invitation.created_at,
        "responded_at": invitation.responded_at,
    }


def invitations_for(user, *, status: Any = None) -> list[dict]:
    """``user``'s latest 100 invitations, newest first, as rows (``invitation_row``)."""
    return [invitation_row(invitation)
            for invitation in invitations_of(user, status=status)[:100]]


def invitations_of(user, *, status: Any = None) -> QuerySet[Invitation]:
    """``user``'s invitations, newest first (``status``: one of pending, accepted,
    declined, withdrawn). Raises InvalidRequest for another status."""
    rows = Invitation.objects.filter(invitee=user).select_related("match", "inviter",
                                                                  "invitee")
    if status is not None:
        if status not in InvitationStatus.values:
            raise errors.InvalidRequest(
                f"status must be one of {', '.join(InvitationStatus.values)}.",
                details={"status": list(InvitationStatus.values)})
        rows = rows.filter(status=status)
    return rows


def private_info(match: Match, user) -> dict:
    """``{"private", "invite_code", "rematch_of", "rematch"}`` of a match: the code only
    for its creator and players (a private match's code is the key to a seat)."""
    private = PrivateMatch.objects.filter(match_id=match.pk).first()
    insider = user is not None and getattr(user, "is_authenticated", False) and (
        match.created_by_id == user.pk or match.seats.filter(user=user).exists())
    rematch = Rematch.objects.filter(original_id=match.pk).values_list("match_id",
                                                                        flat=True).first()
    rematch_of = Rematch.objects.filter(match_id=match.pk).values_list("original_id",
                                                                        flat=True).first()
    return {
        "private": private is not None,
        "invite_code": private.invite_code if private is not None and insider else None,
        "rematch": rematch,
        "rematch_of": rematch_of,
    }
