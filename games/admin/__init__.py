"""Django admin of the games app: the match pages (``matches``) and what they show of a
match at a glance (``glance``), the webhooks' pages, and the chat moderation queue and
its log (``chat_moderation``, ``chat_moderation_log``). Django imports ``games.admin``;
importing the modules here registers their pages."""

from games.admin import chat_moderation, chat_moderation_log, matches, webhooks  # noqa: F401
