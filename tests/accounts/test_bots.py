"""The accounts bots play under (accounts/bots.py): one per bot kind, made on first use by
accounts (the one writer of accounts_user), unable to sign in, and named so that no person
can register the name."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts.bots import BOT_ACCOUNT_PREFIX, bot_account, is_bot_account
from accounts.models import User
from accounts.usernames import UsernameValidator

pytestmark = pytest.mark.django_db


def test_a_bot_kind_gets_one_account_that_cannot_sign_in():
    account = bot_account("greedy")
    assert account.username == f"{BOT_ACCOUNT_PREFIX}greedy"
    assert not account.has_usable_password()
    assert is_bot_account(account)
    assert bot_account("greedy").pk == account.pk
    assert User.objects.filter(username="bot:greedy").count() == 1


def test_no_person_can_register_a_bot_name(make_user):
    assert not is_bot_account(make_user())
    with pytest.raises(ValidationError):
        UsernameValidator()("bot:greedy")
