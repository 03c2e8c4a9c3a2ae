"""Server-side request forgery: a webhook URL whose host is, or resolves to, a loopback,
private, link-local or unspecified address (IPv4 and IPv6) is refused at registration
(400, nothing written) and again at send, after a real DNS resolution (``localhost``
through the machine's resolver): the receiver is never contacted. The tests' allow-list
(WEBHOOK_ALLOWED_ADDRESSES) is off here; with it on, the local receiver is reached."""

from __future__ import annotations

import pytest

from games.webhooks import services
from games.webhooks.models import Delivery, Endpoint
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import make_app, register

FORBIDDEN_URLS = [
    "http://127.0.0.1:{port}/hooks",           # IPv4 loopback
    "http://10.1.2.3:{port}/hooks",            # 10/8
    "http://169.254.169.254/latest/meta-data",  # the cloud metadata service (link-local)
    "http://[::1]:{port}/hooks",               # IPv6 loopback
    "http://localhost:{port}/hooks",           # a name resolving to loopback
    "http://0.0.0.0:{port}/hooks",             # unspecified
    "http://[::ffff:127.0.0.1]:{port}/hooks",  # loopback spelled as IPv4-mapped IPv6
    "http://192.168.1.10/hooks",               # 192.168/16
    "http://[fe80::1]/hooks",                  # IPv6 link-local
]


@pytest.fixture
def no_allow_list(settings):
    settings.WEBHOOK_ALLOWED_ADDRESSES = []


@pytest.mark.parametrize("template", FORBIDDEN_URLS)
@pytest.mark.django_db
def test_a_forbidden_address_is_refused_at_registration(template, no_allow_list, user,
                                                        auth_client):
    app = make_app(user)
    response = register(auth_client, app, template.format(port=8080))
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "webhook_url_forbidden_address"
    assert not Endpoint.objects.exists()


@pytest.mark.django_db
def test_plain_http_is_refused_unless_the_setting_allows_it(settings, user, auth_client):
    settings.WEBHOOK_HTTP_URLS = False
    app = make_app(user)
    response = register(auth_client, app, "http://hooks.example/x")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "webhook_url_not_https"
    assert not Endpoint.objects.exists()


@pytest.mark.django_db
def test_an_unresolvable_host_is_refused(user, auth_client):
    app = make_app(user)
    response = register(auth_client, app, "https://no-such-host.invalid/hooks")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "webhook_url_unresolvable"
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("template", [FORBIDDEN_URLS[0], FORBIDDEN_URLS[3], FORBIDDEN_URLS[4]])
@pytest.mark.django_db
def test_a_host_that_became_forbidden_is_refused_at_send(template, settings, user):
    """Registered while the allow-list let loopback through (as a name may resolve to a
    public address at registration and to a private one later), then sent with it off:
    the receiver, listening on loopback, sees nothing and the attempt says why."""
    with running_receiver() as receiver:
        port = receiver.url.rsplit(":", 1)[1].split("/")[0]
        settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.0/8", "::1"]
        endpoint = services.create_endpoint(make_app(user), url=template.format(port=port),
                                            event_types=["your_turn"])
        delivery = Delivery.objects.create(endpoint=endpoint, message_id="msg_send_check",
                                           event_type="your_turn", payload={"type": "x"})
        settings.WEBHOOK_ALLOWED_ADDRESSES = []
        assert services.attempt(delivery.pk) is not None  # a failed attempt: retried later
        delivery.refresh_from_db()
        assert delivery.attempts == 1
        assert delivery.last_error == "refused: webhook_url_forbidden_address"
        assert receiver.arrivals == []

        # the same delivery, allowed again: the receiver on 127.0.0.1 is reached (so the
        # refusal above was the address check, not an unreachable receiver); [::1] is
        # not listened on, so only the IPv4 spellings can land
        settings.WEBHOOK_ALLOWED_ADDRESSES = ["127.0.0.0/8", "::1"]
        receiver.secret = endpoint.secret
        services.attempt(delivery.pk)
        if "[::1]" not in template:
            assert [arrival.verified for arrival in receiver.arrivals] == [True]
