"""The e-mail settings over GraphQL: the same services as REST (a confirmation mail reaches
a real SMTP server), the same refusals with the same codes, nothing written on a refusal,
and an app's token may not choose where a player's mail goes."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.mail.models import MailAddress
from tests.accounts.apps_oauth.support import make_app, sign_in
from tests.games.graphql.support import gql, make_player

pytestmark = pytest.mark.django_db(transaction=True)

SET = """mutation($address: String!, $language: String) {
  setMailAddress(address: $address, language: $language) {
    settings { address verified language dailyDigest } errors { code } } }"""


def _codes(body: dict, field: str) -> list[str]:
    return [error["code"] for error in body["data"][field]["errors"]]


def test_set_read_and_change_the_address(make_user, smtp, eager, settings):
    player = make_player(make_user)
    assert gql("{ myMailSettings { address } }", token=player.token)["data"] == {
        "myMailSettings": None}
    bad = gql(SET, {"address": "nobody"}, token=player.token)
    assert _codes(bad, "setMailAddress") == ["mail_address_invalid"]
    assert not MailAddress.objects.exists()

    done = gql(SET, {"address": "Ann@Example.org", "language": "de"}, token=player.token)
    assert done["data"]["setMailAddress"] == {"errors": [], "settings": {
        "address": "Ann@example.org", "verified": False, "language": "de",
        "dailyDigest": False}}
    (mail,) = smtp.wait_for(1)
    assert mail.recipients == ["Ann@example.org"] and mail.links("confirm")

    again = gql("mutation { resendMailConfirmation { errors { code } } }", token=player.token)
    assert _codes(again, "resendMailConfirmation") == ["mail_confirmation_too_soon"]
    wrong = gql("mutation { updateMailSettings(language: \"fr\") { errors { code } } }",
                token=player.token)
    assert _codes(wrong, "updateMailSettings") == ["invalid_input"]
    digest = gql("mutation { updateMailSettings(dailyDigest: true) { settings { dailyDigest "
                 "language } errors { code } } }", token=player.token)
    assert digest["data"]["updateMailSettings"]["settings"] == {"dailyDigest": True,
                                                                 "language": "de"}
    read = gql("{ myMailSettings { address verified dailyDigest } }", token=player.token)
    assert read["data"]["myMailSettings"] == {"address": "Ann@example.org",
                                              "verified": False, "dailyDigest": True}


def test_an_app_token_may_not_set_the_address(make_user, smtp, eager):
    owner, ann = make_user(), make_user()
    app = make_app(owner)
    browser = Client()
    browser.force_login(ann)  # the consent flow, as a player's browser goes through it
    key = sign_in(browser, Client(), app, scope="account:read account:write")["access_token"]
    response = Client().post("/graphql/", data=json.dumps({"query": SET, "variables": {
        "address": "ann@example.org"}}), content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {key}")
    assert _codes(response.json(), "setMailAddress") == ["first_party_only"]
    assert not MailAddress.objects.exists() and smtp.received == []
    anonymous = gql(SET, {"address": "ann@example.org"})
    assert _codes(anonymous, "setMailAddress") == ["not_authenticated"]
