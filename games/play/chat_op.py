"""The play socket's ``chat`` op (docs/play.md, docs/chat.md "Over the play socket"): send
a message to a chat room of a match, answered as a move is: ``ack`` once the message is
committed (with the message as the room lists it), or ``refused`` with the code and HTTP
status REST would give (``chat_room_not_writable``, ``chat_text_empty``,
``chat_rate_limited``...). A mixin of games/play/connection.py's ``PlayConnection``,
kept here so that module stays one socket's life and the op lives beside its kind.

The socket's own ``chat`` push of that message is held until the ``ack`` (the same
``answering_move`` hold a move uses), so a client sees its ack before the echo.
"""

from __future__ import annotations

from games.matches.parsing import parse_match_id
from games.play import operations
from games.play.answers import refused_frame, run_service
from games.play.protocol import Request, frame
from infra.api_errors import ApiError
from infra.observability import metrics


class ChatOp:
    async def _op_chat(self, request: Request) -> None:
        self._signed_in(request)
        match_id = parse_match_id(request.fields["match"])
        # room and text are checked by the chat's service, as for REST: a room that is
        # not one is refused chat_room_not_found, a text that is no string invalid_request
        room, text = request.fields["room"], request.fields["text"]
        with self.answering_move(match_id):
            try:
                row = await run_service(operations.send_chat, self.user, match_id, room,
                                        text)
            except ApiError as exc:
                self.enqueue(refused_frame(request.ref, match_id, exc))
                # counted for the socket's app as a refused move is (docs/operations.md)
                metrics.app_error(metrics.app_label(self.user, self.credential),
                                  metrics.PLAY)
                return
            self.enqueue(frame("ack", request.ref, match=str(match_id), ply=row["ply"],
                               message=row))
