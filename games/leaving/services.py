"""The games' side of erasing an account (accounts/erasure.py sends ``account_erased``
inside its transaction; ``games.apps`` connects ``on_account_erased``). Once the account is
a tombstone, nothing may wait on it any more, and each capability's own writer does its
part:

- the lobby withdraws its pending invitations, received or sent, and aborts the open
  matches it created (nobody else may start them);
- quick match cancels its waiting request;
- its seat in any other open match is given up (``leave_match``);
- its seat in each running match goes to the match's takeover bot for good
  (``games.clocks.services.leave_seat_for_good``): the match plays on, nothing to reclaim,
  and a ``takeover`` incident naming the tombstone marks where its moves end;
- the feed deletes its events (nobody can read them any more), and other people's
  invitations that named it name the tombstone;
- its e-mail address and the log of its mails are deleted (games.mail.services.forget);
- its browsers' push subscriptions are removed (games.notifications.push.forget): a
  tombstone is told nothing;
- its chat mutes go, both ways (games.chat.mutes.forget); its chat messages stay, naming
  the tombstone (docs/chat.md "Privacy").

Finished matches, their logs, incidents, results and ratings are left as they are: their
seats point to the same row, which now shows the tombstone, so every record still
verifies (docs/records.md). The usual follow-up (bot turns, scoring, feeds, live updates)
runs after the commit, as for any change of those writers.
"""

from __future__ import annotations

from games.chat import mutes as chat_mutes
from games.clocks import services as clock_services
from games.feed import services as feed
from games.lobby import services as lobby
from games.mail import services as mail
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from games.notifications import push
from games.quickmatch import services as quickmatch


def on_account_erased(sender, user, former_username: str, **kwargs) -> None:
    """The ``accounts.erasure.account_erased`` receiver."""
    leave_everything(user, former_username)


def leave_everything(user, former_username: str) -> None:
    """Every step of the module's docstring, in the caller's transaction. Matches are
    taken in id order, as every writer locks them, so two erasures never wait on each
    other in a circle."""
    lobby.withdraw_for_leaver(user, former_username)
    quickmatch.withdraw_for_leaver(user)
    seats = Match.objects.filter(seats__user=user).order_by("pk")
    for match_id in list(seats.filter(status=MatchStatus.OPEN).values_list("pk", flat=True)):
        match_services.leave_match(user=user, match_id=match_id)
    for match_id in list(seats.filter(status=MatchStatus.ACTIVE).values_list("pk", flat=True)):
        clock_services.leave_seat_for_good(user=user, match_id=match_id)
    feed.forget(user, former_username)
    push.forget(user)
    mail.forget(user)
    chat_mutes.forget(user)
