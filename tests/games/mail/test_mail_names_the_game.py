"""A mail names the match's game (review finding: "a game" for what was known): an
invitation from the lobby carries its match's game, so its mail says "Han"; a game the
service no longer offers is named by its id, never "a game"."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.lobby import services as lobby
from games.mail import texts

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_lobby_invitation_mail_names_the_game(make_user, smtp, eager, verified, settings):
    settings.NOTIFICATION_REACH_CHECK_SECONDS = 0
    inviter, invitee = make_user(), make_user()
    verified(invitee)
    match, _code = lobby.create_private_match(user=inviter, game="han", players=2,
                                              invite=[invitee.username])
    (mail,) = smtp.wait_for(1)
    assert mail.recipients == [f"{invitee.username}@example.org"]
    assert f"match {match.pk} of Han" in mail.text
    assert "a game" not in mail.text and "a game" not in mail.subject
    assert "Han" in mail.subject


def test_a_game_no_longer_offered_is_named_by_its_id():
    with translation.override("en"):
        sentence = texts.sentence("match_finished", {"match_id": 5, "game": "chess"})
        assert sentence == "Match 5 of chess has ended: see the result."
        assert "a game" in texts.sentence("your_turn", {"match_id": 5, "ply": 3})
