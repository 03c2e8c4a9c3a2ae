"""The chat's errors, one class per stable code (docs/chat.md "Errors"); none writes
anything: each is raised before the message is stored."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.matches.errors import GameServiceError


class ChatRoomNotFound(GameServiceError):
    status_code = 404
    default_code = "chat_room_not_found"
    default_detail = _("No such chat room: it is \"players\" or \"spectators\".")


class ChatRoomNotReadable(GameServiceError):
    status_code = 403
    default_code = "chat_room_not_readable"
    default_detail = _("You may not read this chat room.")


class ChatRoomNotWritable(GameServiceError):
    status_code = 403
    default_code = "chat_room_not_writable"
    default_detail = _("You may not write in this chat room.")


class ChatTextEmpty(GameServiceError):
    default_code = "chat_text_empty"
    default_detail = _("A chat message needs some text.")


class ChatTextTooLong(GameServiceError):
    default_code = "chat_text_too_long"
    default_detail = _("This chat message is too long.")


class ChatMessageNotFound(GameServiceError):
    status_code = 404
    default_code = "chat_message_not_found"
    default_detail = _("No such message in this chat room.")


class ChatMessageNotYours(GameServiceError):
    status_code = 403
    default_code = "chat_message_not_yours"
    default_detail = _("Only its author may delete a message.")


class ChatRateLimited(GameServiceError):
    status_code = 429
    default_code = "chat_rate_limited"

    def __init__(self, seconds: int) -> None:
        super().__init__(gettext("You are writing too fast in this room: try again in "
                                 "%(seconds)s s.") % {"seconds": seconds},
                         details={"retry_after_seconds": seconds})


class ChatLinksNotAllowed(GameServiceError):
    default_code = "chat_links_not_allowed"
    default_detail = _("Links are not allowed in the spectators' room.")
