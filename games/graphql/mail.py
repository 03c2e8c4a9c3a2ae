"""GraphQL fields of a player's e-mail: ``myMailSettings``, ``setMailAddress``,
``updateMailSettings`` and ``resendMailConfirmation`` (REST: /api/v1/mail/), over the
same services (games/mail/services.py; docs/webhooks.md "E-mail for players")."""

from __future__ import annotations

from datetime import datetime

import strawberry
from django.conf import settings
from django.utils import translation
from oauth2_provider.models import get_access_token_model
from strawberry.types import Info

from accounts.apps_oauth.api import FirstPartyOnly
from games.graphql.context import authenticated_user
from games.graphql.errors import attempt, game_error, signed_in
from games.graphql.types import GameError
from games.mail import selectors, services
from games.mail.errors import LanguageUnknown
from games.mail.models import MailAddress
from games.matches import errors

_LANGUAGES = {code for code, _name in settings.LANGUAGES}


@strawberry.type(description="Your e-mail address and how you are mailed (REST: GET "
                 "/api/v1/mail/). Which events are mailed: myNotificationPreferences.email.")
class MailSettings:
    address: str
    verified: bool
    verified_at: datetime | None
    language: str
    daily_digest: bool

    @classmethod
    def from_row(cls, row: MailAddress) -> MailSettings:
        return cls(address=row.address, verified=row.verified_at is not None,
                   verified_at=row.verified_at, language=row.language,
                   daily_digest=row.daily_digest)


@strawberry.type
class MailSettingsPayload:
    settings: MailSettings | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


def _answer(call) -> MailSettingsPayload:
    row, problems = attempt(call)
    if problems:
        return MailSettingsPayload(errors=problems)
    return MailSettingsPayload(settings=MailSettings.from_row(row))


def _language(value: str | None) -> str:
    """A language the mails speak: the one asked for, else the request's; an unknown one
    is 400 ``invalid_input``, as REST's choice field answers."""
    if value is None:
        return "de" if (translation.get_language() or "").startswith("de") else "en"
    if value not in _LANGUAGES:
        raise LanguageUnknown(details={"language": value[:16], "allowed": sorted(_LANGUAGES)})
    return value


@strawberry.type
class MailQueries:
    @strawberry.field(description="Your e-mail settings; null when you set no address.")
    def my_mail_settings(self, info: Info) -> MailSettings | None:
        user = authenticated_user(info)
        if user is None:
            raise errors.AuthenticationRequired()
        row = selectors.address_of(user)
        return MailSettings.from_row(row) if row is not None else None


@strawberry.type
class MailMutations:
    @strawberry.mutation(description="Set your e-mail address: a confirmation link is "
                         "mailed to it, and nothing else until you open it (REST: PUT "
                         "/api/v1/mail/). Only with your own credential, not an app's.")
    def set_mail_address(self, info: Info, address: str,
                         language: str | None = None) -> MailSettingsPayload:
        user, problems = signed_in(info)
        if problems:
            return MailSettingsPayload(errors=problems)
        if isinstance(info.context.auth, get_access_token_model()):
            return MailSettingsPayload(errors=[game_error(FirstPartyOnly())])
        return _answer(lambda: services.set_address(user, address, _language(language)))

    @strawberry.mutation(description="The daily digest on or off, the mails' language "
                         "(REST: PATCH /api/v1/mail/).")
    def update_mail_settings(self, info: Info, daily_digest: bool | None = None,
                             language: str | None = None) -> MailSettingsPayload:
        user, problems = signed_in(info)
        if problems:
            return MailSettingsPayload(errors=problems)
        return _answer(lambda: services.update_choices(
            user, daily_digest=daily_digest,
            language=_language(language) if language is not None else None))

    @strawberry.mutation(description="Mail the confirmation link again (REST: POST "
                         "/api/v1/mail/confirmation/).")
    def resend_mail_confirmation(self, info: Info) -> MailSettingsPayload:
        user, problems = signed_in(info)
        if problems:
            return MailSettingsPayload(errors=problems)
        return _answer(lambda: services.resend_confirmation(user))
