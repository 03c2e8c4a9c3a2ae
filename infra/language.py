"""The language of a response: ``?lang=`` first, then Accept-Language, then English.

Django's LocaleMiddleware reads Accept-Language (and a language cookie); a link or an
<img> cannot send a header, so ``?lang=de`` chooses too. An unknown ``lang`` is ignored
(the header decides), never an error: the language only changes messages, never codes.
"""

from __future__ import annotations

from django.conf import settings
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class RequestLanguageMiddleware(LocaleMiddleware):
    def process_request(self, request):
        chosen = request.GET.get("lang", "")
        if chosen and chosen.lower() in dict(settings.LANGUAGES):
            translation.activate(chosen.lower())
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)
