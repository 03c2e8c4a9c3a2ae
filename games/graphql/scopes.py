"""The scope each top-level GraphQL field needs of a caller's credential (accounts/scopes.py),
declared in one table and checked by one field extension (infra/credential_scopes.py's
rule, as REST's base view applies it).

Every query, mutation and subscription field is in ``FIELD_SCOPES``: ``None`` for a field
that needs no scope (the public reads, which work anonymously; signing up and logging
in). The schema refuses to build with a field missing from the table, or a table entry
naming no field (``apply_scopes``), so no operation is ever served without a decision.

A refusal is ``insufficient_scope`` with ``details.scope``, as other errors are: in a
mutation's payload ``errors`` (REST's 403), in ``extensions`` for a query or a
subscription. Nested fields are not checked again: a root field's scope covers what it
returns.
"""

from __future__ import annotations

import inspect
from typing import Any

from strawberry.extensions import FieldExtension
from strawberry.utils.str_converters import to_camel_case

from games.graphql.errors import as_graphql_error, game_error
from infra import credential_scopes

READ, PLAY, WRITE, MANAGE = "account:read", "match:play", "match:write", "account:write"
CHAT = "chat:write"

FIELD_SCOPES: dict[str, dict[str, str | None]] = {
    "Query": {
        "games": None, "game": None, "matches": None, "match": None, "replay": None,
        "matchRecord": None, "verifyRecord": None, "recordSigningKeys": None,
        "leaderboard": None, "player": None,
        "matchAnalysis": None,
        "me": READ, "myInvitations": READ, "myQuickMatches": READ,
        "myData": MANAGE,  # the export, as GET /me/export
        "chatMessages": None, "myChatMutes": READ,  # as REST's chat lists (docs/chat.md)
        "myNotificationPreferences": READ, "gamesWaitingForMe": READ,
        "myMailSettings": READ,
    },
    "Mutation": {
        "register": None, "login": None, "revokeToken": MANAGE, "deleteAccount": MANAGE,
        "createMatch": WRITE, "joinMatch": WRITE, "leaveMatch": WRITE, "startMatch": WRITE,
        "abortMatch": WRITE, "createPrivateMatch": WRITE, "inviteToMatch": WRITE,
        "acceptInvitation": WRITE, "declineInvitation": WRITE, "joinByInviteCode": WRITE,
        "proposeRematch": WRITE, "requestQuickMatch": WRITE, "cancelQuickMatch": WRITE,
        "requestAnalysis": WRITE,
        "setNotificationPreferences": MANAGE,  # as PATCH /me/notification-preferences/
        "setMailAddress": MANAGE, "updateMailSettings": MANAGE,  # as PUT, PATCH /mail/
        "resendMailConfirmation": MANAGE,  # as POST /mail/confirmation/
        "submitMove": PLAY, "resignMatch": PLAY, "reclaimSeat": PLAY,
        "sendChatMessage": CHAT, "deleteChatMessage": CHAT, "muteInChat": CHAT,
        "unmuteInChat": CHAT,
        "reportChatMessage": CHAT,
    },
    "Subscription": {"matchUpdates": None, "analysisProgress": None, "myEvents": READ,
                     "chatMessages": None},
}


class RequiresScope(FieldExtension):
    """Refuse the field to a credential without ``scope``."""

    def __init__(self, scope: str, *, in_payload: bool) -> None:
        self.scope, self.in_payload = scope, in_payload

    def _refusal(self, info) -> Any:
        context = info.context
        if not credential_scopes.lacks(context.user, context.auth, self.scope):
            return None
        refusal = credential_scopes.InsufficientScope(self.scope)
        if self.in_payload:  # every mutation's payload: its fields default, plus errors
            return info.return_type(errors=[game_error(refusal)])
        raise as_graphql_error(refusal)

    def resolve(self, next_, source, info, **kwargs) -> Any:
        refused = self._refusal(info)
        return refused if refused is not None else next_(source, info, **kwargs)

    async def resolve_async(self, next_, source, info, **kwargs) -> Any:
        refused = self._refusal(info)
        if refused is not None:
            return refused
        result = next_(source, info, **kwargs)
        return await result if inspect.isawaitable(result) else result


def apply_scopes(**root_types) -> None:
    """Give each root field (``Query=..., Mutation=..., Subscription=...``) the check its
    ``FIELD_SCOPES`` entry asks for; a field with no entry, or an entry with no field, is
    an error at start."""
    for type_name, root_type in root_types.items():
        fields = {field.graphql_name or to_camel_case(field.python_name): field
                  for field in root_type.__strawberry_definition__.fields}
        declared = FIELD_SCOPES[type_name]
        if set(fields) != set(declared):
            raise RuntimeError(
                f"GraphQL {type_name} fields without a scope: "
                f"{sorted(set(fields) - set(declared))}; "
                f"scopes without a field: {sorted(set(declared) - set(fields))}")
        for name, field in fields.items():
            if declared[name] is not None and not any(
                    isinstance(extension, RequiresScope) for extension in field.extensions):
                field.extensions.append(RequiresScope(declared[name],
                                                      in_payload=type_name == "Mutation"))
