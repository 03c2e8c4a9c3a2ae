"""Request and response shapes of the accounts API."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from accounts import usernames
from accounts.models import User


class UserSerializer(serializers.ModelSerializer):
    # A plain string, not format "email": a user who gave none has "" (a response that
    # broke its own OpenAPI schema, found by schemathesis).
    email = serializers.CharField(read_only=True, help_text="Empty when none was given.")
    username = serializers.CharField(read_only=True, max_length=usernames.MAX_LENGTH)

    class Meta:
        model = User
        fields = ["id", "username", "email", "date_joined", "is_staff"]
        read_only_fields = fields


class RegistrationSerializer(serializers.ModelSerializer):
    # Declared, not generated from the model: the generated field checks uniqueness with
    # exact case before our rules run (accounts/usernames.py).
    # the length the rules enforce (30), so the schema says what is accepted (issue 22)
    username = serializers.CharField(
        max_length=usernames.MAX_LENGTH,
        help_text=f"{usernames.ALLOWED_DESCRIPTION}; unique regardless of "
        "case; NFKC-normalised."
    )
    password = serializers.CharField(
        write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )
    # no default here: "" is not an email address, and the schema's default must validate
    # against its own format (register_user defaults to "")
    email = serializers.EmailField(required=False, allow_blank=True)

    class Meta:
        model = User
        fields = ["username", "password", "email"]

    def validate_username(self, value: str) -> str:
        name = usernames.normalize(value)
        try:
            usernames.UsernameValidator()(name)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages[0], code=exc.code) from exc
        if usernames.matching(User.objects.all(), name).exists():
            raise serializers.ValidationError(
                "A user with that username already exists (usernames are compared "
                "regardless of case).", code="unique")
        return name

    def validate(self, attrs):
        # Django's validators (length, common, numeric, similarity to username/email) see an
        # unsaved user so UserAttributeSimilarityValidator can compare against it.
        candidate = User(username=attrs.get("username", ""), email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as exc:
            # Keep Django's codes (password_too_short, password_too_common, ...) in the details.
            raise DjangoValidationError({"password": exc.error_list}) from exc
        return attrs


class RegistrationResponseSerializer(serializers.Serializer):
    user = UserSerializer()
    token = serializers.CharField()


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField()
    user = UserSerializer()


class EraseAccountSerializer(serializers.Serializer):
    # not required here: a missing password is its own error (password_required, 400)
    password = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False,
                                     max_length=4096, style={"input_type": "password"},
                                     help_text="Your current password.")
