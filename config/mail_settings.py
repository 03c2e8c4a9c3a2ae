"""Settings of the players' e-mail (games/mail/, docs/webhooks.md "E-mail for players";
docs/operations.md "E-mail"), imported at the end of config/settings.py. Django's own
e-mail settings are read from the environment here too."""

from config.env import env_bool, env_int, env_str

#: Django's e-mail backend: SMTP in production; the console backend prints mails (development)
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)  # STARTTLS (port 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # TLS from the start (port 465)
#: seconds before a connection to the mail server gives up (a task retries later)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Han and Hansa <noreply@localhost>")

#: the service's public address, the start of every link in a mail (confirm, unsubscribe)
MAIL_SITE_URL = env_str("MAIL_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
#: a frontend's page of a match, linked from its mails: ``{match_id}`` is filled in
#: (e.g. https://play.example/matches/{match_id}); empty: no link
MAIL_MATCH_URL = env_str("MAIL_MATCH_URL", "")
#: "your turn" is mailed only if the player has not looked at the match this long after it
#: became their turn (games/mail/looks.py says what "looked" is)
MAIL_YOUR_TURN_AFTER_MINUTES = float(env_str("MAIL_YOUR_TURN_AFTER_MINUTES", "15"))
#: how old this process's answer to "has anyone a confirmed address?" may be before it is
#: asked again (games/mail/mailable.py): while nobody has one, reads and pushes record no
#: looks; an address confirmed in another process is tracked within this long
MAIL_LOOKS_CHECK_SECONDS = float(env_str("MAIL_LOOKS_CHECK_SECONDS", "5"))
#: how long a confirmation link works
MAIL_CONFIRM_MAX_AGE_HOURS = env_int("MAIL_CONFIRM_MAX_AGE_HOURS", 48)
#: the least time between two confirmation mails to one player (resend: 429 before)
MAIL_CONFIRM_RESEND_SECONDS = env_int("MAIL_CONFIRM_RESEND_SECONDS", 60)
#: the hour (UTC) of the daily digest
MAIL_DIGEST_HOUR_UTC = env_int("MAIL_DIGEST_HOUR_UTC", 7)
#: how often the sweep sends the mails that came due (a "your turn" after its wait, a retry)
MAIL_SWEEP_SECONDS = float(env_str("MAIL_SWEEP_SECONDS", "30"))
#: tries of one mail against a failing mail server before it is marked failed; the waits
#: between them double from MAIL_RETRY_BASE_SECONDS
MAIL_MAX_ATTEMPTS = env_int("MAIL_MAX_ATTEMPTS", 6)
MAIL_RETRY_BASE_SECONDS = env_int("MAIL_RETRY_BASE_SECONDS", 60)
