"""When a player last looked at a match, for "your turn" by mail only to a player who has
not (docs/webhooks.md, "E-mail for players").

"Looked" is: the reader was given the match's state at a ply, by REST (``GET
/api/v1/matches/<id>/`` answered 200), by GraphQL's ``match`` query, or by a play socket
seated at the match (its subscription's snapshot, and each change pushed to it). What is
kept is the **highest ply each player has seen** of each match, in a Redis hash per match
(``mail:seen:<match_id>``, user id -> ply, expiring after ``SEEN_TTL_SECONDS``): a "your
turn" at ply P is mailed only when the seen ply is below P once the wait is over.

Only seated players' looks are kept (a spectator is owed no "your turn"), and only while
someone has a confirmed address (games/mail/mailable.py): with nobody mailable, a read and
a push do no mail work at all, neither a Redis write nor a query (issue 45).

The hot path pays a dictionary look-up per read: this process writes only when the ply it
gives a reader is higher than the last it wrote for that reader and match, so a poller
that reads one position a hundred times writes once. The write is handed to the process's
sender thread (infra/background_sends.py), never waited for, and the records that arrive
while one waits go with it in one pipelined round trip (a busy hub's moves, each shown to
several seated sockets, cost the sender thread a round trip, not one per socket); a Lua
script keeps the maximum when processes race. A Redis that is down loses the record, and
the worst that follows is one mail too many.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from django_redis import get_redis_connection

from games.mail.mailable import anyone_mailable
from games.matches.selectors import seat_of
from infra.background_sends import send_in_background

logger = logging.getLogger(__name__)

#: a record outlives any wait for a "your turn" (days, for turn-based matches)
SEEN_TTL_SECONDS = 30 * 24 * 3600
#: how many (match, user) pairs this process remembers having written
_REMEMBERED = 50_000

_lock = threading.Lock()
#: (match, user) -> the highest ply this process wrote (or is about to)
_written: OrderedDict[tuple[int, int], int] = OrderedDict()
#: (match, user) -> ply: records handed to the sender thread, not written yet
_pending: dict[tuple[int, int], int] = {}

_KEEP_MAX = """
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
if tonumber(ARGV[2]) > current then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def _key(match_id: int) -> str:
    return f"mail:seen:{match_id}"


def saw(user_id: int, match_id: int, ply: int) -> None:
    """The seated player ``user_id`` was just given the match at ``ply``. Cheap: see the
    module. For a thread that may query (at most once per MAIL_LOOKS_CHECK_SECONDS)."""
    if anyone_mailable():
        _record(user_id, match_id, ply)


def saw_seated(match, user) -> None:
    """``saw`` for a REST or GraphQL read of ``match`` by ``user``: counted only when the
    reader holds a seat (a spectator is owed no "your turn")."""
    if seat_of(match, user) is not None:
        saw(user.pk, match.pk, match.ply)


def saw_on_loop(user_id: int, match_id: int, ply: int) -> bool:
    """``saw`` for an event loop, where no query may run: the last answer to "anyone
    mailable?" decides. True when that answer is stale: the caller has it asked again off
    the loop (``anyone_mailable.refresh``: games/play/looks_on_loop.py)."""
    if anyone_mailable.known():
        _record(user_id, match_id, ply)
    return anyone_mailable.stale()


def _record(user_id: int, match_id: int, ply: int) -> None:
    pair = (match_id, user_id)
    with _lock:
        if _written.get(pair, -1) >= ply:
            return
        _written[pair] = ply
        _written.move_to_end(pair)
        if len(_written) > _REMEMBERED:
            _written.popitem(last=False)
        first = not _pending
        _pending[pair] = max(_pending.get(pair, -1), ply)
    if first:  # one job carries every record that arrives before it runs
        send_in_background(_flush)


def _flush() -> None:
    """The records waiting, in one pipelined round trip to Redis."""
    with _lock:
        batch = dict(_pending)
        _pending.clear()
    if not batch:
        return
    try:
        pipe = get_redis_connection("default").pipeline(transaction=False)
        for (match_id, user_id), ply in batch.items():
            pipe.eval(_KEEP_MAX, 1, _key(match_id), user_id, ply, SEEN_TTL_SECONDS)
        pipe.execute()
    except Exception:  # noqa: BLE001 - a lost record costs a mail, never the reader
        with _lock:
            for pair in batch:
                _written.pop(pair, None)
        logger.warning("mail: could not record %s looks at matches", len(batch))


def seen_ply(user_id: int, match_id: int) -> int:
    """The highest ply the player has been shown of the match, -1 if none (raises when
    Redis is down: the task retries)."""
    value = get_redis_connection("default").hget(_key(match_id), user_id)
    return int(value) if value is not None else -1


def forget_process_memory() -> None:
    """Tests: this process forgets what it wrote (Redis is cleared between tests)."""
    with _lock:
        _written.clear()
        _pending.clear()
