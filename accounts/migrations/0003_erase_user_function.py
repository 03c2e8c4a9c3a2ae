"""The one way the runtime database role may erase an account (issue 25, a player's right
to leave): a function owned by the database owner that replaces the user's row by a
tombstone. The runtime role may not update usernames, emails or ``is_active`` at all
(infra/database_roles.py); it is given EXECUTE on this function alone, so the only change
of those columns it can make is this one: a name of the tombstone's form, every personal
field emptied, the password unusable, the account inactive, and never to an administrator
(staff or superuser: the owner's to remove). accounts/erasure.py calls it."""

from django.db import migrations

CREATE = r"""
CREATE FUNCTION accounts_erase_user(p_user_id bigint, p_tombstone text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF p_tombstone IS NULL OR p_tombstone !~ '^deleted-[0-9a-f]{12}$' THEN
        RAISE EXCEPTION 'not a tombstone name: %', p_tombstone USING ERRCODE = '22023';
    END IF;
    UPDATE accounts_user
       SET username = p_tombstone, email = '', first_name = '', last_name = '',
           password = '!erased', last_login = NULL, is_active = false
     WHERE id = p_user_id AND NOT is_staff AND NOT is_superuser
       AND username NOT LIKE 'deleted-%';
    RETURN FOUND;
END
$$;
REVOKE ALL ON FUNCTION accounts_erase_user(bigint, text) FROM PUBLIC;
"""

DROP = "DROP FUNCTION IF EXISTS accounts_erase_user(bigint, text);"


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_username_any_case")]

    operations = [migrations.RunSQL(CREATE, DROP)]
