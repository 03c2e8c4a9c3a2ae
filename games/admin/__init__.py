"""Django admin of the games app: the match pages (``matches``) and what they show of a
match at a glance (``glance``). Django imports ``games.admin``; importing ``matches``
here registers its pages."""

from games.admin import chat_moderation, chat_moderation_log, matches, webhooks  # noqa: F401
