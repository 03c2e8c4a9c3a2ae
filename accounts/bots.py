"""The accounts bots play under: one per bot kind (``bot:<kind>``), the one writer of those
``accounts_user`` rows (docs/architecture.md: each table has one writer; games asks here).

Ratings rate a bot kind through its account (games/ratings/services.py), so each bot level
earns a rating from the people it meets. ":" is refused in registered usernames
(accounts/usernames.py), so no person can take a bot's name; a bot's account cannot sign
in (its password is unusable).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

#: prefix of the bot accounts' usernames
BOT_ACCOUNT_PREFIX = "bot:"


def bot_account(bot_kind: str):
    """The account of a bot kind (created on first use; it cannot sign in)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username=f"{BOT_ACCOUNT_PREFIX}{bot_kind}")
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def is_bot_account(user) -> bool:
    """``user`` is a bot kind's account (by its reserved name)."""
    return user.username.startswith(BOT_ACCOUNT_PREFIX)
