"""Which hosts a webhook may call: server-side request forgery kept out.

An app's owner chooses the URL, and the service's workers post to it from inside the
network: a URL naming the metadata service (169.254.169.254), a database on 10/8 or the
worker's own loopback would turn the service into the owner's probe. So a URL is checked
at registration and again at every send, after DNS resolution (a name may resolve
elsewhere by then), and the send connects to the very address that was checked
(``sending``), never resolving again. Every address the name resolves to must be
allowed: one forbidden answer refuses the URL (a round-robin name cannot slip one in).

Allowed: only globally routable unicast addresses (``ipaddress``'s ``is_global``), IPv4
and IPv6, an IPv4-mapped IPv6 address judged as its IPv4 one. ``WEBHOOK_ALLOWED_ADDRESSES``
names networks let through anyway: the tests' local receiver on 127.0.0.1, a
development machine. Plain http only with ``WEBHOOK_HTTP_URLS`` (development, tests).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from infra.api_errors import ApiError


class UrlRefused(ApiError):
    status_code = 400
    default_code = "webhook_url_refused"
    default_detail = _("This webhook URL is not allowed.")


class NotHttps(UrlRefused):
    default_code = "webhook_url_not_https"
    default_detail = _("A webhook URL must use https.")


class ForbiddenAddress(UrlRefused):
    default_code = "webhook_url_forbidden_address"
    default_detail = _("The webhook URL's host resolves to a loopback, private, link-local "
                       "or otherwise non-public address.")


class Unresolvable(UrlRefused):
    default_code = "webhook_url_unresolvable"
    default_detail = _("The webhook URL's host name could not be resolved.")


@dataclass(frozen=True)
class Target:
    """Where a send goes: the URL's parts and the checked address to connect to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(entry, strict=False)
            for entry in getattr(settings, "WEBHOOK_ALLOWED_ADDRESSES", ())]


def is_forbidden(address: str) -> bool:
    """Whether ``address`` is one no webhook may reach (and no allow-list entry holds)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone says nothing more
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in network for network in _allowed_networks()):
        return False
    return not ip.is_global or ip.is_multicast


def check_url(url: str) -> Target:
    """The target of ``url`` if it may be called now; ``UrlRefused`` (a 400 at
    registration, a failed attempt at a send) if not."""
    parts = urlsplit(url)
    allowed_schemes = ("https", "http") if settings.WEBHOOK_HTTP_URLS else ("https",)
    if parts.scheme not in allowed_schemes:
        raise NotHttps()
    if not parts.hostname or parts.username or parts.password:
        raise UrlRefused()
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise UrlRefused() from error
    try:
        answers = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Unresolvable() from error
    addresses = list(dict.fromkeys(answer[4][0] for answer in answers))
    if not addresses or any(is_forbidden(address) for address in addresses):
        raise ForbiddenAddress()
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, parts.hostname, port, path, addresses[0])
