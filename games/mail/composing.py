"""A mail as it goes out: subject, plain-text and HTML bodies from the templates in
games/templates/mail/, in the player's language, with the unsubscribe links of RFC 8058
(``List-Unsubscribe`` and ``List-Unsubscribe-Post``) and in the body."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games.mail import texts, tokens
from games.mail.models import EVENT_TYPES, MailAddress


def _match_url(data: dict) -> str:
    template = settings.MAIL_MATCH_URL
    return template.format(match_id=data["match_id"]) if template and data.get(
        "match_id") else ""


def _message(address: MailAddress, subject: str, template: str, context: dict,
             unsubscribe_scope: str | None,
             one_click_scope: str | None = None) -> EmailMultiAlternatives:
    """``unsubscribe_scope``: what the body's first link stops (None: no links, no
    headers); ``one_click_scope``: what a mail client's one-click "unsubscribe" stops
    (RFC 8058), the same unless told."""
    if unsubscribe_scope is not None:
        scope_link = tokens.link("unsubscribe",
                                 tokens.unsubscribe_token(address.user_id, unsubscribe_scope))
        all_link = tokens.link("unsubscribe",
                               tokens.unsubscribe_token(address.user_id, tokens.ALL))
        context = {**context, "unsubscribe_url": scope_link, "unsubscribe_all_url": all_link}
    context = {**context, "username": address.user.username, "site_url": settings.MAIL_SITE_URL}
    text = render_to_string(f"mail/{template}.txt", context)
    html = render_to_string(f"mail/{template}.html", context)
    headers = {}
    if unsubscribe_scope is not None:
        # RFC 8058: a mail client's one-click "unsubscribe" POSTs to this URL
        one_click = (
            context["unsubscribe_url"] if one_click_scope in (None, unsubscribe_scope) else
            context["unsubscribe_all_url"] if one_click_scope == tokens.ALL else
            tokens.link("unsubscribe", tokens.unsubscribe_token(address.user_id,
                                                                one_click_scope)))
        headers = {"List-Unsubscribe": f"<{one_click}>",
                   "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    message = EmailMultiAlternatives(subject=subject, body=text, to=[address.address],
                                     headers=headers)
    message.attach_alternative(html, "text/html")
    return message


def event_mail(address: MailAddress, event_type: str, data: dict) -> EmailMultiAlternatives:
    with translation.override(address.language):
        context = {"subject": texts.subject(event_type, data),
                   "sentence": texts.sentence(event_type, data),
                   "match_url": _match_url(data),
                   "kind_name": texts.kind_name(event_type)}
        scope = event_type if event_type in EVENT_TYPES else tokens.ALL
        return _message(address, context["subject"], "event", context, scope)


def digest_mail(address: MailAddress, events: list[tuple[str, dict]]) -> EmailMultiAlternatives:
    with translation.override(address.language):
        lines = [{"sentence": texts.sentence(kind, data), "match_url": _match_url(data)}
                 for kind, data in events]
        subject = _("Your day in your matches: %(count)s news") % {"count": len(lines)}
        # the body's "stop these digests" turns the digest off, no event type; a mail
        # client's one-click unsubscribe stops all e-mail: pressed on a digest, it must
        # not bring each event's mail at once instead (docs/webhooks.md "Every mail")
        return _message(address, subject, "digest", {"subject": subject, "lines": lines},
                        tokens.DIGEST, one_click_scope=tokens.ALL)


def confirmation_mail(address: MailAddress) -> EmailMultiAlternatives:
    with translation.override(address.language):
        link = tokens.link("confirm", tokens.confirmation_token(address.user_id,
                                                                address.address))
        subject = _("Confirm your e-mail address")
        return _message(address, subject, "confirm",
                        {"subject": subject, "confirm_url": link,
                         "hours": settings.MAIL_CONFIRM_MAX_AGE_HOURS}, None)
