"""The language of a response: ``?lang=`` first, then Accept-Language, then English.

Django's LocaleMiddleware reads Accept-Language (and a language cookie); a link or an
<img> cannot send a header, so ``?lang=de`` chooses too. An unknown ``lang`` is ignored
(the header decides), never an error: the language only changes messages, never codes.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


class RequestLanguageMiddleware(LocaleMiddleware):
    def process_request(self, request):
        chosen = request.GET.get("lang", "")
        if chosen and chosen.lower() in dict(settings.LANGUAGES):
            translation.activate(chosen.lower())
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)


def supported_language(code: object) -> str | None:
    """``code`` ("de", "DE", "de-AT") as one of settings.LANGUAGES, or None."""
    if not isinstance(code, str) or not code or len(code) > 35:
        return None
    try:
        return translation.get_supported_language_variant(code.lower())
    except LookupError:
        return None


def language_of_handshake(scope) -> str:
    """The language of a websocket (the play socket): ``?lang=`` of its URL, then the
    handshake's Accept-Language, then English, the order of an HTTP request. A socket
    has no headers after the handshake; its ``hello`` may choose again (docs/play.md)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    chosen = supported_language((query.get("lang") or [""])[0])
    if chosen:
        return chosen
    header = next((value.decode("latin1") for name, value in scope.get("headers", [])
                   if name.lower() == b"accept-language"), "")
    for code, _quality in parse_accept_lang_header(header[:500]):
        if code == "*":
            break
        if chosen := supported_language(code):
            return chosen
    return settings.LANGUAGE_CODE
