"""Notifications to players (issue 42, docs/notifications.md): what each player wants to be
told on which channel, Web Push to their browsers, and reminders before a turn-based
deadline. Webhooks for apps are games/webhooks/; e-mail is games/mail/.

The contract the channels build to:

- ``games.notifications.preferences.allows(user_id: int, channel: str, event_type: str)
  -> bool``: whether ``user_id`` wants ``event_type`` on ``channel`` (``push`` or
  ``email``); a preference never set is its documented default (``DEFAULTS``).
- ``games.notifications.fanout`` is connected beside the webhooks' events (games/apps.py,
  the lobby's invitation, the reminder sweep): after the commit it hands the event to one
  ``games.notifications.tasks.fan_out`` task (none at all while nobody has a push
  subscription or an e-mail address: the move's path pays nothing for it), which for each
  user enqueues by name (games.dispatch.enqueue)
  ``games.notifications.tasks.push_event(event_type, user_id, data)`` when push is
  allowed and the user has a subscription, and
  ``games.mail.tasks.mail_event(event_type, user_id, data)`` when e-mail is allowed and
  the user has a confirmed address (games/mail/'s ``MailAddress``; the e-mail side decides
  delays, the digest, and checks again at send time).
- ``data`` holds ids and public facts only: ``match_id``, ``game``, ``ply``, ``seat``,
  ``status``, ``invitation_id``, ``deadline`` (ISO 8601 UTC, reminders): never a hand, a
  deck or a seed.

One job per module: ``models``, ``preferences`` (the defaults, ``allows``, the reads and
the one write of preferences), ``fanout``, ``push`` (the VAPID key and the browsers'
subscriptions), ``push_sending`` (one encrypted, signed push), ``messages`` (a push's text
in the user's language), ``reminders``, ``waiting`` (the games waiting for a player),
``metrics``, ``tasks``, ``database_grants``.
"""
