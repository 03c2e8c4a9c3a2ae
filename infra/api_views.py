"""The base of every REST view: unknown query parameters are refused, and so are control
characters in the URL and the query string.

A misspelt filter (``?stauts=active``, ``?mytrun=true``) would otherwise be ignored without
a word and the client would get the unfiltered list; as with an unknown body key, it gets a
400 ``invalid_request`` naming the parameter instead. Each view lists what it reads in
``query_params``.

A path part or a query value holding a control character (``/users/a%00b/``) is a 400
``invalid_input`` before the view runs: PostgreSQL cannot store NUL, and no name, id or
filter holds any control character (infra/text_inputs.py; bodies: infra/parsers.py).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.views import APIView

from infra.api_errors import ApiError
from infra.text_inputs import refuse_control_characters


class UnknownQueryParameter(ApiError):
    default_code = "invalid_request"
    default_detail = _("Unknown query parameter.")


#: query-string parameters every endpoint takes: ``lang`` chooses the language of the
#: messages (infra/language.py), like Accept-Language
COMMON_QUERY_PARAMS = ("lang",)


class ApiView(APIView):
    #: the query-string parameters this view reads (and COMMON_QUERY_PARAMS); any other
    #: is a 400
    query_params: tuple[str, ...] = ()
    #: body fields of free text that may span lines (TAB, LF and CR, no other control)
    multiline_fields: tuple[str, ...] = ()

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # authentication and throttles first
        refuse_control_characters(kwargs, "")  # the URL's parts, by their names
        for name, values in request.query_params.lists():  # every value of a repeated one
            for value in values:
                refuse_control_characters({name: value}, "")
        unknown = sorted(set(request.query_params) - set(self.query_params)
                         - set(COMMON_QUERY_PARAMS))
        if unknown:
            names = ", ".join(repr(name[:40]) for name in unknown[:5])
            allowed = ", ".join(self.query_params) or gettext("none")
            raise UnknownQueryParameter(
                gettext("Unknown query parameter %(names)s; this endpoint takes: %(allowed)s.")
                % {"names": names, "allowed": allowed},
                details={"unknown": [name[:40] for name in unknown[:10]],
                         "allowed": list(self.query_params)},
            )
