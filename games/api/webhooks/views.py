"""REST: an app owner's webhook endpoints and their delivery logs, under
``/api/v1/apps/<app_id>/webhooks/`` (docs/webhooks.md). Read with ``account:read``,
changed with ``account:write`` by the owner themselves (a first-party credential, as for
the app itself: accounts/apps_oauth/api.py)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.apps_oauth import selectors as app_selectors
from accounts.apps_oauth.api import require_first_party
from accounts.apps_oauth.services import NotFound
from games.api.webhooks.serializers import (
    DeliverySerializer,
    EndpointSerializer,
    NewEndpointSerializer,
)
from games.webhooks import selectors, services
from infra.api_errors import ErrorSerializer
from infra.api_views import ApiView
from infra.numbers import parse_whole_number
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, page_of, paged


def _id(value: str, field: str) -> int:
    """An id from the path; one that spells no id is not found, as an unknown one is."""
    return parse_whole_number(value, field, low=1, error=lambda *args, **kwargs: NotFound())


def _app(request: Request, app_id: str):
    app = app_selectors.owned_app(request.user, _id(app_id, "app_id"))
    if app is None:
        raise NotFound()
    return app


def _endpoint(request: Request, app_id: str, endpoint_id: str):
    endpoint = selectors.endpoint_of(_app(request, app_id), _id(endpoint_id, "endpoint_id"))
    if endpoint is None:
        raise NotFound()
    return endpoint


class EndpointsView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read", "POST": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your app's webhook endpoints", operation_id="list_webhooks",
                   parameters=PAGE_PARAMETERS,
                   responses={200: page_of(EndpointSerializer), 401: ErrorSerializer,
                              404: ErrorSerializer})
    def get(self, request: Request, app_id: str) -> Response:
        rows = selectors.endpoints_of(_app(request, app_id))
        return Response(paged(request, rows, lambda row: EndpointSerializer(row).data))

    @extend_schema(summary="Register a webhook endpoint for your app",
                   description="The answer's `secret` (Standard Webhooks, `whsec_...`) is "
                   "shown this once. The URL must be https and resolve to public addresses "
                   "only.", operation_id="create_webhook", request=EndpointSerializer,
                   responses={201: NewEndpointSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer,
                              404: ErrorSerializer})
    def post(self, request: Request, app_id: str) -> Response:
        require_first_party(request)
        serializer = EndpointSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = {key: value for key, value in serializer.validated_data.items()
                  if key in ("url", "event_types")}
        endpoint = services.create_endpoint(_app(request, app_id), **fields)
        return Response(NewEndpointSerializer(endpoint).data, status=status.HTTP_201_CREATED)


class EndpointView(ApiView):
    required_scopes = {"GET": "account:read", "PATCH": "account:write",
                       "DELETE": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="One of your app's webhook endpoints", operation_id="get_webhook",
                   responses={200: EndpointSerializer, 401: ErrorSerializer,
                              404: ErrorSerializer})
    def get(self, request: Request, app_id: str, endpoint_id: str) -> Response:
        return Response(EndpointSerializer(_endpoint(request, app_id, endpoint_id)).data)

    @extend_schema(summary="Change a webhook endpoint; `active: true` enables it again",
                   operation_id="update_webhook", request=EndpointSerializer,
                   responses={200: EndpointSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer,
                              404: ErrorSerializer})
    def patch(self, request: Request, app_id: str, endpoint_id: str) -> Response:
        require_first_party(request)
        data = request.data  # the body is read (and refused when bad) before the lookup
        endpoint = _endpoint(request, app_id, endpoint_id)
        serializer = EndpointSerializer(endpoint, data=data, partial=True)
        serializer.is_valid(raise_exception=True)
        endpoint = services.update_endpoint(endpoint, **serializer.validated_data)
        return Response(EndpointSerializer(endpoint).data)

    @extend_schema(summary="Remove a webhook endpoint and its delivery log",
                   operation_id="delete_webhook", request=None,
                   responses={204: None, 401: ErrorSerializer, 403: ErrorSerializer,
                              404: ErrorSerializer})
    def delete(self, request: Request, app_id: str, endpoint_id: str) -> Response:
        require_first_party(request)
        services.delete_endpoint(_endpoint(request, app_id, endpoint_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveriesView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="A webhook endpoint's delivery log, newest first",
                   operation_id="list_webhook_deliveries", parameters=PAGE_PARAMETERS,
                   responses={200: page_of(DeliverySerializer), 401: ErrorSerializer,
                              404: ErrorSerializer})
    def get(self, request: Request, app_id: str, endpoint_id: str) -> Response:
        rows = selectors.deliveries_of(_endpoint(request, app_id, endpoint_id))
        return Response(paged(request, rows, lambda row: DeliverySerializer(row).data))


class SendAgainView(ApiView):
    required_scopes = {"POST": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Send a delivery again (same webhook-id, attempts from one)",
                   operation_id="send_webhook_again", request=None,
                   responses={202: DeliverySerializer, 401: ErrorSerializer,
                              403: ErrorSerializer, 404: ErrorSerializer,
                              409: ErrorSerializer})
    def post(self, request: Request, app_id: str, endpoint_id: str,
             delivery_id: str) -> Response:
        require_first_party(request)
        endpoint = _endpoint(request, app_id, endpoint_id)
        delivery = selectors.delivery_of(endpoint, _id(delivery_id, "delivery_id"))
        if delivery is None:
            raise NotFound()
        delivery = services.send_again(delivery)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
