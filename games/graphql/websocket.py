"""Websocket transport for subscriptions (graphql-transport-ws over channels).

A client authenticates with the same DRF token as REST, either in the connection_init
payload ``{"authToken": "..."}`` (preferred: it stays out of server logs) or as a
``?token=`` query parameter. No token means an anonymous spectator.

A signed-in socket ends (close 4403) when its user's access is revoked: it joins the
user's access group and closes on the announcement, and re-checks its token before each
``next`` message once the last check is older than ACCESS_RECHECK_SECONDS
(accounts/revocation.py). After a Redis outage (infra/channel_layer.py) every
subscription re-reads what it shows.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import close_old_connections
from strawberry.channels import GraphQLWSConsumer
from strawberry.channels.handlers.ws_handler import ChannelsWebSocketAdapter
from strawberry.exceptions import ConnectionRejectionError

from accounts.revocation import (
    ACCESS_REVOKED_CLOSE_CODE,
    ACCESS_REVOKED_TYPE,
    AccessCheck,
    access_group,
)
from games.graphql.auth import InvalidToken, credential_for_token
from games.graphql.context import GraphQLContext
from games.graphql.limits import query_too_large
from infra.channel_layer import RESUMED_TYPE
from infra.observability import metrics
from infra.parsers import MalformedJson, decode_json
from infra.ws_origins import origin_allowed


def _credential_for_token_closing_connections(key):
    # Runs in a worker thread that outlives the request; drop stale connections first.
    close_old_connections()
    return credential_for_token(key)


class QueryTokenAuthMiddleware(BaseMiddleware):
    """Sets ``scope["user"]`` (and ``scope["auth"]``, the credential, whose scopes bound
    the socket's operations: games/graphql/scopes.py) from a ``?token=`` query parameter
    (anonymous without one)."""

    async def __call__(self, scope, receive, send):
        scope = dict(scope)
        params = parse_qs(scope.get("query_string", b"").decode("latin1"))
        key = (params.get("token") or [None])[0]
        try:
            scope["user"], scope["auth"] = await database_sync_to_async(
                _credential_for_token_closing_connections)(key)
            scope["token_key"] = key
        except InvalidToken as exc:
            scope["user"] = AnonymousUser()
            scope["auth_error"] = exc.message
        return await super().__call__(scope, receive, send)


def _malformed(reason: str) -> json.JSONDecodeError:
    # strawberry answers a JSONDecodeError by closing with 4400 (graphql-transport-ws's
    # "invalid message"): the protocol's own answer to every message below.
    return json.JSONDecodeError(reason, "", 0)


def decode_ws_message(text: str | bytes) -> Any:
    """One graphql-transport-ws message, or JSONDecodeError (close 4400) for JSON that
    REST's body rules refuse (infra/parsers.py ``decode_json``: nested past
    MAX_JSON_DEPTH, ``NaN``, a number past ``int()``'s limit), a message that is not
    an object, or a ``subscribe`` whose payload is not ``{"query": str, "variables"?:
    object, "operationName"?: str}``. strawberry crashed on these (RecursionError,
    ``None["type"]``: the socket hung without an answer) or echoed a Python error text
    ("object of type 'int' has no len()")."""
    try:
        # REST's rules for a JSON body (infra/parsers.py), as over HTTP: a 5,000-digit
        # number raised ValueError, which strawberry does not catch (issue 39)
        message = decode_json(text)
    except MalformedJson as exc:
        raise _malformed(str(exc)) from None
    if not isinstance(message, dict):
        raise _malformed("a message is a JSON object")
    if message.get("type") == "subscribe":
        payload = message.get("payload")
        if (
            not isinstance(payload, dict)
            or not isinstance(payload.get("query"), str)
            or not isinstance(payload.get("variables") or {}, dict)
            or not isinstance(payload.get("operationName") or "", str)
        ):
            raise _malformed("subscribe needs a payload {query, variables?, operationName?}")
        if refusal := query_too_large(payload["query"]):
            raise _malformed(refusal.message)
    return message


class AccessCheckedAdapter(ChannelsWebSocketAdapter):
    """strawberry's sending side of the socket, which sends a ``next`` message (a result,
    private to the caller) only while the socket's token still stands; once it does not,
    the socket is closed and nothing more is sent."""

    async def send_json(self, message) -> None:
        consumer = self.ws_consumer
        access = consumer.access
        if access is not None and (access.revoked or (
                message.get("type") == "next" and not await access.still_valid())):
            await consumer.close_revoked()
            return
        await super().send_json(message)


class GraphQLSubscriptionConsumer(GraphQLWSConsumer):
    """strawberry's consumer, with the caller (token or anonymous) in the context,
    malformed messages closed with 4400 (``decode_ws_message``), revoked access closing
    the socket (module doc) and a Redis outage's end waking every subscription."""

    websocket_adapter_class = AccessCheckedAdapter
    #: the signed-in caller's token check (accounts/revocation.py); None when anonymous
    access: AccessCheck | None = None
    _closed_revoked = False
    _counted = False  # in the open-sockets gauge

    def decode_json(self, data: str | bytes) -> object:
        return decode_ws_message(data)

    def is_websocket_origin_allowed(self, request, origin: str) -> bool:
        # strawberry's own cross-origin check (it refused every other origin): the CORS
        # list decides, as for HTTP and infra.ws_origins in front of every socket route.
        return origin_allowed(origin, host=None)

    async def connect(self) -> None:
        if self.scope.get("auth_error"):
            # Refuse the handshake (HTTP 403) rather than downgrade a bad token to anonymous.
            await self.close()
            return
        await self._watch_access(self.scope.get("user"), self.scope.get("token_key"))
        await super().connect()
        self._counted = True
        metrics.socket_opened(metrics.GRAPHQL)

    async def get_context(self, request, response) -> GraphQLContext:
        return GraphQLContext(
            request=request,
            response=response,
            user=request.scope.get("user") or AnonymousUser(),
            auth=request.scope.get("auth"),
            ws=request,
        )

    async def on_ws_connect(self, context: GraphQLContext):
        key = (context.connection_params or {}).get("authToken")
        if key is not None:
            try:
                context.user, context.auth = await database_sync_to_async(
                    _credential_for_token_closing_connections
                )(key)
            except InvalidToken as exc:
                # strawberry closes the socket with 4403 Forbidden.
                raise ConnectionRejectionError(
                    {"code": exc.code, "details": {"reason": exc.reason}}
                ) from exc
            await self._watch_access(context.user, key)
        return await super().on_ws_connect(context)

    async def dispatch(self, message) -> None:
        kind = message.get("type")
        if kind == ACCESS_REVOKED_TYPE:
            if self.access is not None and self.access.concerns(message):
                self.access.revoke()
                await self.close_revoked()
            return
        if kind == RESUMED_TYPE:
            # Redis is back after an outage: what was announced meanwhile is lost, so
            # every subscription re-reads (a notification carries nothing but "look again").
            for queues in list(self.listen_queues.values()):
                for queue in list(queues):
                    queue.put_nowait(message)
            return
        await super().dispatch(message)

    async def disconnect(self, code: int) -> None:
        if self._counted:
            self._counted = False
            metrics.socket_closed(metrics.GRAPHQL)
        await self._watch_access(None, None)
        await super().disconnect(code)

    async def close_revoked(self) -> None:
        if not self._closed_revoked:
            self._closed_revoked = True
            await self.close(code=ACCESS_REVOKED_CLOSE_CODE, reason="access revoked")

    async def _watch_access(self, user, key: str | None) -> None:
        """Follow ``user``'s access through ``key`` (None: stop following)."""
        if self.access is not None and self.channel_layer is not None:
            await self.channel_layer.group_discard(access_group(self.access.user_id),
                                                   self.channel_name)
        self.access = None
        if user is not None and getattr(user, "is_authenticated", False) and key:
            self.access = AccessCheck(key, user.pk)
            if self.channel_layer is not None:
                await self.channel_layer.group_add(access_group(user.pk), self.channel_name)
