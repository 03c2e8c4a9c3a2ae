"""Service errors as GraphQL sees them.

Mutations return them as typed ``GameError`` values in their payload (Saleor style);
queries and subscriptions raise them as GraphQL errors whose ``extensions.code`` is the
same stable code REST puts in ``{"error": {"code": ...}}``. Anything that is not a
service error is masked, so an unexpected failure never leaks state in its message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from django.db import OperationalError as DatabaseOperationalError
from django.utils.translation import gettext as _
from graphql import GraphQLError
from rest_framework.exceptions import ValidationError as DrfValidationError
from strawberry.extensions import SchemaExtension
from strawberry.types import Info

from games.graphql.context import authenticated_user
from games.graphql.types import GameError
from games.matches import errors
from infra.api_errors import ApiError, DatabaseBusy, ServiceUnavailable
from infra.outages import UNAVAILABLE, database_busy, which

logger = logging.getLogger(__name__)

T = TypeVar("T")

# The argument a failure points at, by error class (most specific first: isinstance).
_FIELD_OF_ERROR: list[tuple[type[errors.GameServiceError], str]] = [
    (errors.InvalidPlayerCount, "players"),
    (errors.InvalidOptions, "options"),
    (errors.UnknownGame, "game"),
    (errors.UnknownBotKind, "botSeats"),
    (errors.InvalidSeat, "position"),
    (errors.SeatTaken, "position"),
    (errors.MalformedMove, "move"),
    (errors.IllegalMoveError, "move"),
    (errors.StalePly, "expectedPly"),
    (errors.InvalidPly, "ply"),
    (errors.MatchNotFound, "matchId"),
]


def field_of(exc: Exception, overrides: dict[str, str] | None = None) -> str | None:
    code = getattr(exc, "code", None)
    if overrides and code in overrides:
        return overrides[code]
    for error_class, argument in _FIELD_OF_ERROR:
        if isinstance(exc, error_class):
            return argument
    return None


def game_error(exc: ApiError, overrides: dict[str, str] | None = None) -> GameError:
    return GameError(
        code=exc.code, message=exc.message, field=field_of(exc, overrides),
        details=exc.details or None,
    )


def validation_errors(exc: DrfValidationError) -> list[GameError]:
    """A serializer's field errors, one GameError per field, with REST's invalid_input code;
    the per-message codes ("password_too_short", "unique"...) stay in ``details``."""
    full = exc.get_full_details()
    if not isinstance(full, dict):
        full = {"non_field_errors": full}
    found = []
    for name, problems in full.items():
        problems = problems if isinstance(problems, list) else [problems]
        message = "; ".join(str(problem.get("message", problem)) for problem in problems)
        found.append(
            GameError(
                code="invalid_input",
                message=message,
                field=None if name == "non_field_errors" else _camel(name),
                details={name: problems},
            )
        )
    return found


def attempt(call: Callable[[], T], overrides: dict[str, str] | None = None
            ) -> tuple[T | None, list[GameError]]:
    """Run a service call; a service error becomes ``(None, [GameError])``. The services
    are atomic, so a failure has written nothing."""
    try:
        return call(), []
    except DrfValidationError as exc:
        return None, validation_errors(exc)
    except ApiError as exc:
        return None, [game_error(exc, overrides)]
    except DatabaseOperationalError as exc:
        if not database_busy(exc):
            raise  # unreachable: coded() answers service_unavailable
        # a lock or statement timeout: rolled back, refused like any service error
        return None, [game_error(DatabaseBusy(details={"retry_after": DatabaseBusy.retry_after}),
                                 overrides)]


def signed_in(info: Info) -> tuple[object | None, list[GameError]]:
    """A mutation's caller, or the not_authenticated error REST answers with 401 (nothing
    written): every mutation that needs a user starts with it."""
    user = authenticated_user(info)
    if user is None:
        exc = errors.AuthenticationRequired()
        return None, [GameError(code=exc.code, message=exc.message)]
    return user, []


def as_graphql_error(exc: ApiError) -> GraphQLError:
    return GraphQLError(
        exc.message, extensions={"code": exc.code, "details": exc.details or {}}
    )


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def coded(error: GraphQLError) -> GraphQLError:
    """``error`` with its stable code in ``extensions.code`` (ServiceErrorCodes below).

    Service errors (unknown match, not seated, bad ply...) keep their message and code.
    An unreachable database or Redis is ``service_unavailable`` with a fixed message: the
    driver's text (host, port, role) goes to the log only. Other unexpected exceptions are
    logged and answered with a generic message, code ``server_error``: their text could
    name hidden state. GraphQL's own syntax and validation errors (no original exception)
    get ``graphql_validation_failed``. An error already coded is returned as it is."""
    original: Any = error.original_error
    if isinstance(original, ApiError):
        extensions = {"code": original.code, "details": original.details or {}}
        message = original.message
    elif isinstance(original, UNAVAILABLE) and database_busy(original):
        # a lock or statement timeout (docs/operations.md "Database roles"): rolled back
        logger.warning("GraphQL: database busy (lock or statement timeout)")
        extensions = {"code": DatabaseBusy.default_code,
                      "details": {"retry_after": DatabaseBusy.retry_after}}
        message = str(DatabaseBusy.default_detail)
    elif isinstance(original, UNAVAILABLE):
        logger.warning("GraphQL: %s unavailable", which(original), exc_info=original)
        extensions = {"code": ServiceUnavailable.default_code}
        message = str(ServiceUnavailable.default_detail)
    elif original is None or isinstance(original, GraphQLError):
        if error.extensions and "code" in error.extensions:
            return error
        extensions = {"code": "graphql_validation_failed"}
        message = error.message
    else:
        logger.error("GraphQL resolver failed", exc_info=original)
        extensions = {"code": "server_error"}
        message = _("Internal server error.")
    return GraphQLError(
        message, nodes=error.nodes, source=error.source, positions=error.positions,
        path=error.path, original_error=None, extensions=extensions,
    )


class ServiceErrorCodes(SchemaExtension):
    """Give every error of an operation its stable code in ``extensions.code``
    (``coded``): over HTTP when the operation ends, over the websocket for each result it
    streams. An exception raised by another extension's hook before execution (the rate
    limits') skips ``on_operation``; the HTTP view codes those (games/graphql/views.py),
    and ``on_stream_result`` sees them on the websocket."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        if result is not None and getattr(result, "errors", None):
            result.errors = [coded(error) for error in result.errors]

    def on_stream_result(self, result) -> Iterator[None]:
        if getattr(result, "errors", None):
            result.errors = [coded(error) for error in result.errors]
        yield
