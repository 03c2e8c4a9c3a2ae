"""A chat message's answer says what was stored (docs/chat.md "Over the play socket"):
once the message is committed, a failure in what follows the commit (its webhook's check,
its notice's, its push) is logged and the answer is still ``ack`` (REST: 201), never a
refusal, which tells the client that nothing was stored and to send again.

Before, those after-commit steps ran as Django's plain ``on_commit`` callbacks, whose
exception leaves the ``atomic`` block after the commit: a lock timeout there came back to
the play socket as ``refused`` 503 ``database_busy`` (to REST as a 503) for a message the
room then listed, and a client that retried, as told, posted it twice.

Here the production web tier (the runtime role, DATABASE_LOCK_TIMEOUT_MS=500, the webhook
check asked on every send) serves while another session holds an exclusive lock on the
webhook endpoints' table: the step after the commit that reads it times out."""

from __future__ import annotations

import asyncio

import pytest

from games.chat.models import ChatMessage
from games.webhooks.models import Endpoint
from tests.db_sessions import another_session
from tests.fault.serving import http, player, serving_web
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def web(tmp_path):
    with serving_web(tmp_path / "web.log", DATABASE_LOCK_TIMEOUT_MS="500",
                     WEBHOOK_ENDPOINTS_CHECK_SECONDS="0") as port:
        yield port


class EndpointsLocked:
    """Another session (the owner's) holding the endpoints' table in ACCESS EXCLUSIVE mode:
    nobody reads it until it lets go."""

    def __enter__(self):
        self.conn = another_session()
        self.conn.execute(f'LOCK TABLE "{Endpoint._meta.db_table}" IN ACCESS EXCLUSIVE MODE')
        return self

    def __exit__(self, *_exc):
        self.conn.rollback()
        self.conn.close()


def test_a_message_stored_is_acknowledged_though_a_step_after_its_commit_fails(web):
    (_alice, alice), (_bob, bob) = player("after-commit-a"), player("after-commit-b")
    status, created = http(web, "POST", "/api/v1/matches/", alice,
                           {"game": "han", "players": 2})
    assert status == 201, created
    match_id = created["id"]
    status, joined = http(web, "POST", f"/api/v1/matches/{match_id}/join/", bob)
    assert status in (200, 201), joined

    async def over_the_socket() -> dict:
        client = await PlayClient.open(f"127.0.0.1:{web}", alice)
        try:
            return await client.request({"op": "chat", "ref": "c1", "match": str(match_id),
                                         "room": "players", "text": "good luck"},
                                        "ack", "refused", "error")
        finally:
            await client.close()

    with EndpointsLocked():
        answer = asyncio.run(over_the_socket())
        status, posted = http(web, "POST", f"/api/v1/matches/{match_id}/chat/players/",
                              bob, {"text": "you too"})
    assert (answer["op"], answer["ref"]) == ("ack", "c1"), answer
    assert answer["message"]["text"] == "good luck"
    assert status == 201, posted
    stored = list(ChatMessage.objects.filter(room__match_id=match_id)
                  .order_by("id").values_list("id", "text"))
    assert stored == [(answer["message"]["id"], "good luck"), (posted["id"], "you too")]


def test_an_invitation_stored_is_answered_201_though_a_step_after_its_commit_fails(web):
    """The same defect in the lobby's invitations (their webhook check reads the same
    table after the commit): a private match made with its invitees was answered 503,
    and a retry made a second one."""
    from games.lobby.models import Invitation, PrivateMatch

    (_alice, alice), (bob, _bob) = player("after-commit-c"), player("after-commit-d")
    with EndpointsLocked():
        status, created = http(web, "POST", "/api/v1/private-matches/", alice,
                               {"game": "han", "players": 2, "invite": [bob.username]})
    assert status == 201, created
    assert PrivateMatch.objects.filter(match_id=created["id"]).count() == 1
    assert list(Invitation.objects.filter(match_id=created["id"])
                .values_list("invitee_id", flat=True)) == [bob.pk]
