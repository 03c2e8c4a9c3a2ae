"""Admin for users. API tokens get their admin from rest_framework.authtoken (TokenProxy),
tuned below so a token's owner is searchable."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from rest_framework.authtoken.admin import TokenAdmin

from accounts.models import User

admin.site.register(User, UserAdmin)

# Thousands of users make the default <select> unusable; pick the owner by id with a lookup.
TokenAdmin.raw_id_fields = ["user"]
TokenAdmin.search_fields = ["user__username"]
