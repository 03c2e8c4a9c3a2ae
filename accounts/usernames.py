"""Usernames (issue 9, defect 6): one rule for registration, login and the admin.

- **Normalised** with Unicode NFKC first, so compatibility forms (full-width letters,
  ligatures) become the plain characters they look like: "ＡＤＭＩＮ" is "ADMIN".
- **Allowed characters**: ASCII letters and digits, ``.``, ``_`` and ``-``; 3 to 30 of them
  (after normalising). Other scripts are refused: Cyrillic "а" and Latin "a" look alike,
  and no rule short of refusing them keeps look-alikes apart.
- **Unique regardless of case**: ``ADMIN`` is refused while ``admin`` exists (a database
  constraint on ``lower(username)`` in accounts/models.py backs the check).
- **Reserved**: names starting with ``deleted-`` (any case) are the tombstones of erased
  accounts (accounts/erasure.py), so nobody can sign up as one, before or after it exists.
- **Login** finds the account whatever the case typed (and NFKC-normalised): ``Admin``
  signs in as ``admin``. The name is shown as it was registered.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.db.models.functions import Lower
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

MIN_LENGTH = 3
MAX_LENGTH = 30
ALLOWED = re.compile(r"[A-Za-z0-9._-]+\Z")
#: an erased account's username is this and a random hex id (accounts/erasure.py)
TOMBSTONE_PREFIX = "deleted-"
ALLOWED_DESCRIPTION = (
    f"{MIN_LENGTH} to {MAX_LENGTH} characters: ASCII letters, digits, '.', '_' and '-'"
)


def normalize(raw: str) -> str:
    return unicodedata.normalize("NFKC", raw)


@deconstructible
class UsernameValidator:
    """The allowed character set and length (also the model field's validator, so the
    admin's user forms apply it)."""

    message = _("A username is %(min)s to %(max)s characters: ASCII letters, digits, '.', '_' "
                "and '-'.")

    def __call__(self, value: str) -> None:
        name = normalize(str(value))
        if len(name) < MIN_LENGTH:
            raise ValidationError(gettext("A username has at least %(count)s characters.")
                                  % {"count": MIN_LENGTH}, code="min_length")
        if len(name) > MAX_LENGTH:
            raise ValidationError(gettext("A username has at most %(count)s characters.")
                                  % {"count": MAX_LENGTH}, code="max_length")
        if not ALLOWED.match(name):
            raise ValidationError(str(self.message) % {"min": MIN_LENGTH, "max": MAX_LENGTH},
                                  code="invalid_characters")
        if is_tombstone(name):
            raise ValidationError(
                gettext("Usernames starting with %(prefix)r are kept for erased accounts.")
                % {"prefix": TOMBSTONE_PREFIX}, code="reserved")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UsernameValidator)


def is_tombstone(name: str) -> bool:
    """Whether ``name`` has the reserved form of an erased account's name (any case)."""
    return normalize(name).lower().startswith(TOMBSTONE_PREFIX)


def matching(queryset, name: str):
    """The users whose username equals ``name`` regardless of case (NFKC first); the same
    ``lower()`` as the unique constraint."""
    return queryset.alias(username_lower=Lower("username")).filter(
        username_lower=normalize(name).lower()
    )
