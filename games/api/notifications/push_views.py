"""REST: the caller's browsers' Web Push subscriptions, ``/api/v1/me/push-subscriptions/``,
and the server's VAPID key (docs/notifications.md)."""

from __future__ import annotations

from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.notifications.serializers import (
    NewPushSubscriptionSerializer,
    PushKeySerializer,
    PushSubscriptionSerializer,
)
from games.notifications import push
from infra.api_errors import ErrorSerializer
from infra.api_views import PUBLIC, ApiView
from infra.numbers import parse_whole_number
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, page_of, paged


def _row(subscription) -> dict:
    return PushSubscriptionSerializer(subscription).data


class PushKeyView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(summary="The server's VAPID public key (a browser's applicationServerKey)",
                   operation_id="get_push_key",
                   responses={200: PushKeySerializer, 401: ErrorSerializer,
                              503: ErrorSerializer})
    def get(self, request: Request) -> Response:
        return Response({"public_key": push.public_key()})


class PushSubscriptionsView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read", "POST": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your browsers' push subscriptions", parameters=PAGE_PARAMETERS,
                   operation_id="list_push_subscriptions",
                   responses={200: page_of(PushSubscriptionSerializer), 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        return Response(paged(request, push.subscriptions_of(request.user), _row))

    @extend_schema(summary="Register a browser's push subscription",
                   description="The body is the browser's `PushSubscription.toJSON()`. Its "
                   "pushes are written in the request's language (`?lang=`, "
                   "Accept-Language). A malformed subscription is 400 "
                   "`invalid_push_subscription`; a URL that is not https or resolves to a "
                   "forbidden address 400 `push_endpoint_...`; a server without VAPID key "
                   "503 `push_unavailable`.", operation_id="create_push_subscription",
                   request=NewPushSubscriptionSerializer,
                   responses={201: PushSubscriptionSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer,
                              503: ErrorSerializer})
    def post(self, request: Request) -> Response:
        subscription = push.subscribe(request.user, request.data,
                                      translation.get_language() or "en")
        return Response(_row(subscription), status=status.HTTP_201_CREATED)


class PushSubscriptionView(ApiView):
    required_scopes = {"DELETE": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Remove one of your push subscriptions",
                   operation_id="delete_push_subscription", request=None,
                   responses={204: None, 401: ErrorSerializer, 403: ErrorSerializer,
                              404: ErrorSerializer})
    def delete(self, request: Request, subscription_id: str) -> Response:
        number = parse_whole_number(subscription_id, "subscription_id", low=1,
                                    error=lambda *a, **k: push.SubscriptionNotFound())
        push.unsubscribe(request.user, number)
        return Response(status=status.HTTP_204_NO_CONTENT)
