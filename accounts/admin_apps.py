"""``django.contrib.admin`` with our site (accounts/admin_site.py). Its own module: an app
config is imported before the models are ready, and the site imports forms that need them."""

from django.contrib.admin.apps import AdminConfig


class GameAdminConfig(AdminConfig):
    default_site = "accounts.admin_site.GameAdminSite"
