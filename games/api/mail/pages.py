"""The pages a mail's links open, without signing in (the links are signed:
games/mail/tokens.py): ``/mail/confirm/<token>/`` and ``/mail/unsubscribe/<token>/``.

GET shows a page with one button; POST does it. A mail scanner that fetches every link
of a mail so confirms or unsubscribes nothing. The unsubscribe URL also takes RFC 8058's
one-click POST (body ``List-Unsubscribe=One-Click``), which a mail client sends without
the page; the token is the credential, so these POSTs need no CSRF token."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.mail import services, texts, tokens


def _page(request: HttpRequest, title: str, message: str, action: str = "",
          status: int = 200) -> HttpResponse:
    response = render(request, "mail/page.html",
                      {"title": title, "message": message, "action": action}, status=status)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"  # the token is in the URL
    return response


def _bad_link(request: HttpRequest) -> HttpResponse:
    return _page(request, _("This link does not work"),
                 _("It is not valid, or it has expired. Ask for a new one in your settings."),
                 status=400)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "GET":
        if tokens.read_confirmation(token) is None:
            return _bad_link(request)
        return _page(request, _("Confirm your e-mail address"),
                     _("Confirm that this address may receive the mails you chose."),
                     action=_("Confirm"))
    if services.confirm(token) is None:
        return _bad_link(request)
    return _page(request, _("E-mail address confirmed"),
                 _("Thank you: your notifications will be mailed to this address."))


def _scope_name(scope: str) -> str:
    return _("all e-mail") if scope == tokens.ALL else texts.kind_name(scope)


def _asked(scope: str) -> str:
    if scope == tokens.DIGEST:  # it stops no mail: it says what comes instead
        return _("Stop the daily digest? The e-mails you allow then come one by one, as "
                 "things happen.")
    return _("Stop %(what)s?") % {"what": _scope_name(scope)}


def _done(scope: str) -> str:
    if scope == tokens.DIGEST:
        return _("Done: no more daily digest. The e-mails you allow now come as things "
                 "happen; you can choose the digest again in your settings.")
    return (_("Done: no more %(what)s. You can turn them on again in your settings.")
            % {"what": _scope_name(scope)})


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe_page(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "GET":
        read = services.unsubscribe_scope(token)
        if read is None:
            return _bad_link(request)
        return _page(request, _("Unsubscribe"), _asked(read[1]), action=_("Unsubscribe"))
    read = services.unsubscribe(token)
    if read is None:
        return _bad_link(request)
    return _page(request, _("Unsubscribed"), _done(read[1]))
