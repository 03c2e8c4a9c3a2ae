"""Settings: HTTPS behind the entry point (issue 14), imported at the end of
config/settings.py."""

from config.env import env_bool, env_int

# -- HTTPS behind the entry point (issue 14) -------------------------------------------------
# TLS ends in front of the web processes (a load balancer, or the compose entry point
# behind one), which says so in X-Forwarded-Proto. HTTPS=true (production, compose) turns
# on the redirect, secure cookies and HSTS, and `manage.py check --deploy` is then clean.
# Off by default so that development, tests and the benchmarks speak plain HTTP on
# loopback. The health check stays reachable over HTTP for the containers' probes.
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # Joining the browsers' preload list is a commitment an operator makes by hand.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
