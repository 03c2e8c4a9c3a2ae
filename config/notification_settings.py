"""Settings of the players' notifications (games/notifications/, docs/notifications.md):
Web Push and turn-based reminders. Imported at the end of config/settings.py. Push
endpoints are checked against server-side request forgery with the webhooks' settings
(WEBHOOK_HTTP_URLS, WEBHOOK_ALLOWED_ADDRESSES, WEBHOOK_TIMEOUT_SECONDS)."""

from config.env import env_str

#: the VAPID private key (base64url of the raw 32-byte P-256 key, as
#: `manage.py generate_vapid_keys` prints it); empty: Web Push is off and subscribing
#: answers 503 push_unavailable
WEBPUSH_VAPID_PRIVATE_KEY = env_str("WEBPUSH_VAPID_PRIVATE_KEY", "")
#: who runs this server, for the push services (a mailto: or https: URL; RFC 8292)
WEBPUSH_VAPID_SUBJECT = env_str("WEBPUSH_VAPID_SUBJECT", "mailto:webmaster@localhost")
#: how long a push waits at the push service for an offline browser (its TTL header)
WEBPUSH_TTL_SECONDS = int(env_str("WEBPUSH_TTL_SECONDS", str(12 * 3600)))
#: a turn-based seat is reminded this long before its deadline (once per deadline; beat's
#: send-reminders looks every REMINDER_SWEEP_INTERVAL_SECONDS, 300: config/celery_settings.py)
REMINDER_BEFORE_DEADLINE_HOURS = float(env_str("REMINDER_BEFORE_DEADLINE_HOURS", "12"))
#: how long a process trusts its answer to "can anyone be notified at all?"
#: (games/notifications/fanout.py): a move pays no query while nobody can be
NOTIFICATION_REACH_CHECK_SECONDS = float(env_str("NOTIFICATION_REACH_CHECK_SECONDS", "5"))
