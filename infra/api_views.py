"""The base of every REST view: unknown query parameters are refused, and so are control
characters in the URL and the query string.

A misspelt filter (``?stauts=active``, ``?mytrun=true``) would otherwise be ignored without
a word and the client would get the unfiltered list; as with an unknown body key, it gets a
400 ``invalid_request`` naming the parameter instead. Each view lists what it reads in
``query_params``.

A path part or a query value holding a control character (``/users/a%00b/``) is a 400
``invalid_input`` before the view runs: PostgreSQL cannot store NUL, and no name, id or
filter holds any control character (infra/text_inputs.py; bodies: infra/parsers.py).

Each view declares, per method, the scope a credential must carry (``required_scopes``;
``PUBLIC`` for none: a read that works anonymously, signing up, logging in). It is
checked here, after authentication, permissions and throttles, in one place for every
view (infra/credential_scopes.py); a view that leaves a method out cannot be defined
(``__init_subclass__``), so no operation is ever served without a decision.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.views import APIView

from infra import credential_scopes
from infra.api_errors import ApiError
from infra.observability import metrics
from infra.text_inputs import refuse_control_characters


class UnknownQueryParameter(ApiError):
    default_code = "invalid_request"
    default_detail = _("Unknown query parameter.")


#: query-string parameters every endpoint takes: ``lang`` chooses the language of the
#: messages (infra/language.py), like Accept-Language
COMMON_QUERY_PARAMS = ("lang",)

#: ``required_scopes``' value for a method no credential needs a scope for
PUBLIC = None
#: the methods a view may handle; each one it defines needs its scope declared
HANDLED_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


class ApiView(APIView):
    #: the query-string parameters this view reads (and COMMON_QUERY_PARAMS); any other
    #: is a 400
    query_params: tuple[str, ...] = ()
    #: body fields of free text that may span lines (TAB, LF and CR, no other control)
    multiline_fields: tuple[str, ...] = ()
    #: the scope (accounts/scopes.py) each handled method needs, by upper-case method
    #: name; ``PUBLIC`` for none. HEAD follows GET, OPTIONS needs none.
    required_scopes: dict[str, str | None] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        undeclared = [method for method in HANDLED_METHODS
                      if hasattr(cls, method.lower()) and method not in cls.required_scopes]
        if undeclared:
            raise ImproperlyConfigured(
                f"{cls.__module__}.{cls.__qualname__} handles {', '.join(undeclared)} "
                "without declaring its scope in required_scopes (PUBLIC for none)")

    def finalize_response(self, request, response, *args, **kwargs):
        # every answer counted for the app whose token asked (metrics.app_label); what
        # authentication found is read without authenticating again (a refused token
        # would raise once more)
        app = metrics.app_label(getattr(request, "_user", None), getattr(request, "_auth", None))
        metrics.app_request(app, metrics.REST, failed=response.status_code >= 400)
        return super().finalize_response(request, response, *args, **kwargs)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # authentication and throttles first
        method = "GET" if request.method == "HEAD" else request.method
        credential_scopes.require(request.user, request.auth,
                                  self.required_scopes.get(method, PUBLIC))
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
