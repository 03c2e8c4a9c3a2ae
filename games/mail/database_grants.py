"""What the runtime database role may do to the mail tables beyond SELECT, INSERT and
UPDATE (infra/database_roles.py finds this module beside games/mail/models.py).

- DELETE of an address: a player removes theirs (games.mail.services.remove_address);
- DELETE of an address and its mails' log when the account is erased
  (games.mail.services.forget).
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges


def runtime_privileges() -> RuntimePrivileges:
    from games.mail.models import Mail, MailAddress

    return RuntimePrivileges(deletable=frozenset({MailAddress._meta.db_table,
                                                  Mail._meta.db_table}))
