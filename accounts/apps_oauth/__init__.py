"""Third-party apps as users of the service (issue 38): an OAuth 2 authorization server
(django-oauth-toolkit) for registered apps signing players in with PKCE, personal access
tokens, a player's connected apps, and the apps' browser origins.

- models.py: ``App`` (DOT's application, swapped in: owner, homepage, exact redirect URIs,
  browser origins, rate-limit tier, active/suspended), ``PersonalToken``, ``AppUse``;
- tokens.py: how access tokens look (a prefix per kind) and are found (their checksum);
- credentials.py: a raw key -> its user and credential, for REST's ``Bearer``, GraphQL and
  the play socket, and the re-checks of open connections;
- bearer_auth.py: DRF's ``Authorization: Bearer``;
- origins.py: every active app's origins, for CORS and the websockets' origin check;
- oauth_views.py, urls.py, templates/: the consent page, sign-in, token endpoints, metadata;
- services.py / selectors.py, api.py: personal tokens, connected apps, an owner's apps;
- revocation_triggers.py: a token revoked or an app suspended ends its open connections.

Flows and endpoints: docs/apps.md; security notes: docs/security.md.
"""
