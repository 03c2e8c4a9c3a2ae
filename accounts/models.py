"""The user model. A custom model from day one so fields can be added later without the
painful mid-project swap of AUTH_USER_MODEL; API tokens are DRF's authtoken model."""

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player or an administrator. Seats in matches point here (games -> accounts)."""

    class Meta(AbstractUser.Meta):
        ordering = ["id"]
