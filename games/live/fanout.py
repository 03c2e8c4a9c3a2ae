"""The one after-commit receiver for readers (connected in games/apps.py): a match's
change becomes what each reader is sent, and goes out to every process at once.

For a change whose readers' pictures can be built from what the writer had in hand (a
move; the scoring that finishes a match) and that some play socket follows, each seat's
``update`` frame and the spectators' are built and encoded once, here
(games/live/frames.py): this process's hub gets them at once, and the other processes'
hubs get them over Redis Pub/Sub, marked with this process's origin so its own listener
drops them. Any other change, or one nobody follows over a socket, is announced by match,
ply and status only (nothing hidden): each hub, and each GraphQL subscriber, reads what its
readers may see. A reader's seat is the database's answer every time: the frames carry
who held which seat at the change (``frames.holders``), and a read is made as the reader.

The PUBLISH, the GraphQL group's message and the feed pushes the change's writer gathered
(``MatchChanged.group_messages``) go in one round trip to Redis (infra/pubsub.py
``publish_with_groups``), from this process's sender thread: the committing thread never
waits for Redis. A lost message (Redis away, a process killed) is caught by the hubs'
resync check and the subscribers' reconnect (games/play/hub.py).
"""

from __future__ import annotations

from games.live import frames
from games.live.channels import MATCH_UPDATE_TYPE, match_group_name, play_channel
from games.live.followers import followed_by_play_sockets, local_hub
from games.matches.changes import ChangeKind, MatchChanged
from games.matches.models import MatchStatus
from infra import pubsub


def send_change(event: MatchChanged) -> None:
    """After the commit of ``event``: build, deliver here and publish (module doc)."""
    announcement = {"type": MATCH_UPDATE_TYPE, "match_id": event.match_id, "ply": event.ply,
                    "status": event.status, "request_id": event.request_id}
    groups = [(match_group_name(event.match_id), announcement), *event.group_messages]
    here = local_hub()
    followed_here = here is not None and here.follows(event.match_id)
    built = _frames_if_followed(event, followed_here)
    if built is None:
        pubsub.publish_with_groups(play_channel(event.match_id), announcement, groups)
        return
    if followed_here:
        here.deliver_threadsafe(built)
        built = {"origin": here.origin, **built}
    pubsub.publish_with_groups(play_channel(event.match_id), built, groups)


def _frames_if_followed(event: MatchChanged, followed_here: bool) -> dict | None:
    """Every seat's frames, when the change carries what they are built from and some
    play socket follows the match (here, or in another process); else None (the change
    is announced by ply)."""
    if event.match is None or event.state is None:
        return None
    if event.kind == ChangeKind.MOVE and event.move is not None:
        moves, since = [event.move], event.move.ply
    elif event.kind == ChangeKind.STATUS and event.status == MatchStatus.FINISHED:
        moves, since = [], event.ply  # the end: each seat's update at its ply, no moves
    else:
        return None
    if not followed_here and not followed_by_play_sockets(event.match_id):
        return None
    return frames.change_frames(event.match, event.state, moves, since)
