"""A verified address against a real SMTP server: setting one mails a confirmation link
(plain text and HTML), the link from the received mail confirms it in a client without a
session (GET a page, POST does it), bad input is a 400 with a stable code and writes
nothing, and nothing but the confirmation goes to an unconfirmed address."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from games.dispatch import enqueue
from games.mail.models import Mail, MailAddress
from tests.games.support import assert_api_error

pytestmark = pytest.mark.django_db(transaction=True)

API = "/api/v1/mail/"


@pytest.mark.parametrize("body", [{"address": "not-an-address"}, {"address": "a@b"},
                                  {"address": ""}, {"address": 5}, {"address": ["x@y.org"]},
                                  {"address": "x" * 250 + "@example.org"}, {}])
def test_a_bad_address_is_refused_and_writes_nothing(make_user, make_auth_client, smtp,
                                                     eager, body):
    client = make_auth_client(make_user())
    response = client.put(API, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] in {"mail_address_invalid", "invalid_input"}
    assert not MailAddress.objects.exists()
    assert smtp.received == []


def test_the_confirmation_link_from_the_mail_verifies_the_address(make_user, make_auth_client,
                                                                  smtp, eager):
    ann = make_user()
    client = make_auth_client(ann)
    assert_api_error(client.get(API), 404, "mail_address_missing")
    response = client.put(API, {"address": "Ann@Example.ORG"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["address"] == "Ann@example.org"
    assert response.json()["verified"] is False

    (mail,) = smtp.wait_for(1)
    assert mail.recipients == ["Ann@example.org"]
    assert "Confirm" in mail.subject
    (link,) = mail.links("confirm")
    assert link in mail.text and link in mail.html
    assert "List-Unsubscribe" not in mail.message  # nothing to unsubscribe from yet

    # an unconfirmed address: no test mail, no notification
    assert_api_error(client.post(f"{API}test/"), 409, "mail_address_unverified")
    enqueue("games.mail.tasks.mail_event", "invitation", ann.pk,
            {"invitation_id": 1, "match_id": 1, "game": "han"})
    assert not Mail.objects.exists()

    stranger = Client()  # a mail client's browser: no session, no token
    path = link.removeprefix("http://testserver")
    page = stranger.get(path)
    assert page.status_code == 200 and b"<form" in page.content
    assert MailAddress.objects.get(user=ann).verified_at is None  # GET changes nothing
    assert stranger.post(path).status_code == 200
    assert client.get(API).json()["verified"] is True

    assert client.post(f"{API}test/").status_code == 202
    assert smtp.wait_for(2)[1].recipients == ["Ann@example.org"]
    assert_api_error(client.post(f"{API}confirmation/"), 409, "mail_address_already_verified")


def test_a_forged_or_outdated_link_confirms_nothing(make_user, make_auth_client, smtp, eager,
                                                    settings):
    settings.MAIL_CONFIRM_RESEND_SECONDS = 0
    ann = make_user()
    client = make_auth_client(ann)
    client.put(API, {"address": "first@example.org"}, format="json")
    (first,) = smtp.wait_for(1)
    old_path = first.links("confirm")[0].removeprefix("http://testserver")
    client.put(API, {"address": "second@example.org"}, format="json")
    smtp.wait_for(2)
    stranger = Client()
    assert stranger.post(old_path).status_code == 400  # the address changed since
    assert stranger.post(old_path[:-6] + "AAAAA/").status_code == 400  # forged
    settings.MAIL_CONFIRM_MAX_AGE_HOURS = 0
    time.sleep(1.1)
    new_path = smtp.received[1].links("confirm")[0].removeprefix("http://testserver")
    assert stranger.post(new_path).status_code == 400  # expired
    assert MailAddress.objects.get(user=ann).verified_at is None


def test_resending_the_link_is_limited(make_user, make_auth_client, smtp, eager, settings):
    client = make_auth_client(make_user())
    assert_api_error(client.post(f"{API}confirmation/"), 404, "mail_address_missing")
    client.put(API, {"address": "ann@example.org"}, format="json")
    error = assert_api_error(client.post(f"{API}confirmation/"), 429,
                             "mail_confirmation_too_soon")
    assert error["details"]["retry_after"] >= 1
    settings.MAIL_CONFIRM_RESEND_SECONDS = 0
    assert client.post(f"{API}confirmation/").status_code == 202
    assert len(smtp.wait_for(2)) == 2


def test_a_german_player_gets_german_mail(make_user, make_auth_client, smtp, eager):
    client = make_auth_client(make_user())
    client.put(API, {"address": "anna@example.org"}, format="json",
               HTTP_ACCEPT_LANGUAGE="de")
    assert client.get(API).json()["language"] == "de"
    (mail,) = smtp.wait_for(1)
    assert "Bestätigen Sie" in mail.subject or "bestätigen Sie" in mail.text, mail.text
    assert "Sie" in mail.html
    page = Client().get(mail.links("confirm")[0].removeprefix("http://testserver"),
                        HTTP_ACCEPT_LANGUAGE="de")
    assert "Bestätigen".encode() in page.content


def test_choices_are_validated(make_user, make_auth_client, smtp, eager):
    client = make_auth_client(make_user())
    assert_api_error(client.patch(API, {"daily_digest": True}, format="json"), 404,
                     "mail_address_missing")
    client.put(API, {"address": "ann@example.org"}, format="json")
    assert_api_error(client.patch(API, {"language": "fr"}, format="json"), 400,
                     "invalid_input")
    assert_api_error(client.patch(API, {"daily_digest": "often"}, format="json"), 400,
                     "invalid_input")
    assert client.patch(API, {"daily_digest": True}, format="json").json()["daily_digest"]
    assert client.delete(API).status_code == 204
    assert not MailAddress.objects.exists()


def test_the_export_shows_the_address_and_erasure_deletes_it(make_user, make_auth_client, smtp,
                                                          eager, verified):
    from accounts.erasure import erase_account

    ann = make_user()
    verified(ann)
    enqueue("games.mail.tasks.mail_event", "invitation", ann.pk, {"invitation_id": 1})
    smtp.wait_for(1)
    assert Mail.objects.filter(user=ann).exists()
    exported = make_auth_client(ann).get("/api/v1/me/export").json()
    assert exported["mail"]["address"] == f"{ann.username}@example.org"
    assert exported["mail"]["verified"] is True
    erase_account(ann)
    assert not MailAddress.objects.filter(user=ann).exists()
    assert not Mail.objects.filter(user=ann).exists()
