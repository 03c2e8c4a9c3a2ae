"""The sign-in page in front of the consent page: Django's LoginView with our template,
held to the same failed-login rule as ``POST /api/v1/auth/token/``
(accounts/failed_logins.py): an address that failed too often at an account waits before
its next try there, whatever password it sends, and the page answers 429."""

from __future__ import annotations

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm

from accounts import failed_logins
from infra.throttles import client_address


class GuardedAuthenticationForm(AuthenticationForm):
    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request.META)
        try:
            failed_logins.check(username, address)
        except failed_logins.FailedLoginsBackoff as exc:
            self.backoff = exc
            raise forms.ValidationError(exc.message, code="throttled") from exc
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            failed_logins.record_failure(username, address)
            raise
        failed_logins.record_success(username, address)
        return cleaned


class SignInView(auth_views.LoginView):
    template_name = "apps_oauth/login.html"
    form_class = GuardedAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if getattr(form, "backoff", None) is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.backoff.wait)
        return response
