"""The service in German (or any language of settings.LANGUAGES), through Django's
translation machinery.

Texts written in games/, infra/ and accounts/ are marked with gettext as usual. The rules
library has no Django: its messages and board labels are built with ``rules.text.tr``
(translated by infra/translation.py), and the names in its data files (maps, provinces,
cities, the catalogue's descriptions) are listed in ``data_names.py``, a module generated
by ``manage.py extract_data_names`` so that ``makemessages`` finds them
(docs/development.md, "Translations").
"""
