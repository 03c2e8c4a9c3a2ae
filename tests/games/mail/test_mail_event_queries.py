"""A mail sent at once asks its address and the player's preference once (review
finding: ``mail_event`` asked both in ``accept_event`` and again in ``deliver``, moments
later in the same task, two queries each). The asking stays in the mail's own task, after
the fan-out's: a player who turned the event off in between is not mailed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.dispatch import enqueue
from games.mail.models import Mail, MailAddress, MailStatus
from games.notifications.models import Preference
from games.notifications.preferences import set_preferences

pytestmark = pytest.mark.django_db(transaction=True)

MAIL_EVENT = "games.mail.tasks.mail_event"


def _reads_of(queries: list[dict], table: str) -> int:
    return sum(1 for query in queries
               if query["sql"].startswith("SELECT") and f'FROM "{table}"' in query["sql"])


def test_an_invitation_mail_asks_address_and_preference_once(make_user, smtp, eager,
                                                             verified):
    ann = make_user()
    verified(ann)
    with CaptureQueriesContext(connection) as seen:
        enqueue(MAIL_EVENT, "invitation", ann.pk,
                {"invitation_id": 5, "match_id": 6, "game": "han"})
    (mail,) = smtp.wait_for(1)
    assert "match 6" in mail.text
    assert _reads_of(seen.captured_queries, MailAddress._meta.db_table) == 1
    assert _reads_of(seen.captured_queries, Preference._meta.db_table) == 1
    assert Mail.objects.get(key="invitation:5").status == MailStatus.SENT


def test_an_event_turned_off_after_the_fan_out_is_not_mailed(make_user, smtp, eager,
                                                              verified):
    ann = make_user()
    verified(ann)
    set_preferences(ann.pk, [("email", "invitation", False)])  # after the fan-out asked
    enqueue(MAIL_EVENT, "invitation", ann.pk,
            {"invitation_id": 7, "match_id": 8, "game": "han"})
    assert not Mail.objects.filter(key="invitation:7").exists()
    assert smtp.received == []
