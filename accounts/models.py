"""The user model. A custom model from day one so fields can be added later without the
painful mid-project swap of AUTH_USER_MODEL; API tokens are DRF's authtoken model."""

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from accounts.usernames import UsernameValidator, matching


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username):
        # Login (ModelBackend) and createsuperuser look users up here: any case, NFKC.
        return matching(self.get_queryset(), username).get()


class User(AbstractUser):
    """A player or an administrator. Seats in matches point here (games -> accounts)."""

    # Usernames: accounts/usernames.py (character set, NFKC, unique regardless of case).
    username_validator = UsernameValidator()
    username = models.CharField(
        "username",
        max_length=150,
        unique=True,
        help_text=_("3 to 30 characters: ASCII letters, digits, '.', '_' and '-'."),
        validators=[username_validator],
        error_messages={"unique": _("A user with that username already exists.")},
    )

    objects = CaseInsensitiveUserManager()

    class Meta(AbstractUser.Meta):
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(Lower("username"), name="user_username_unique_any_case"),
        ]
