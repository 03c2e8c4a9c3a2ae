"""Users loaded from a few of their columns by hand-written SQL (the token check,
accounts/token_auth.py; a match with its seats, games/matches/rows.py): which user fields to
read, in the order ``Model.from_db`` expects them. The other columns load on first access,
as deferred fields do."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db.models import Field


@cache
def user_fields(names: tuple[str, ...]) -> tuple[Field, ...]:
    """The user model's concrete fields named in ``names``, in the model's own field
    order (not the order of ``names``): ``Model.from_db`` takes values in that order."""
    return tuple(field for field in get_user_model()._meta.concrete_fields
                 if field.name in names)


@cache
def user_attnames(names: tuple[str, ...]) -> tuple[str, ...]:
    """``user_fields(names)``' attribute names, the names ``Model.from_db`` takes."""
    return tuple(field.attname for field in user_fields(names))
