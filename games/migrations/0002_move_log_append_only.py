"""The move log is append-only in the database too, not only in Python.

- A trigger refuses every UPDATE of ``games_move`` and every DELETE while the row's match
  still exists.
- The foreign key to the match becomes ON DELETE CASCADE (Django's side is DO_NOTHING), so
  deleting a match removes its moves from inside the database, after the match row is
  gone, which is the one delete the trigger lets through. TRUNCATE (test flushes) fires no
  row trigger.
"""

from django.db import migrations

FORWARD = """
DO $$
DECLARE fk_name text;
BEGIN
    SELECT conname INTO fk_name FROM pg_constraint
     WHERE conrelid = 'games_move'::regclass AND contype = 'f'
       AND confrelid = 'games_match'::regclass;
    EXECUTE format('ALTER TABLE games_move DROP CONSTRAINT %I', fk_name);
    EXECUTE format(
        'ALTER TABLE games_move ADD CONSTRAINT %I FOREIGN KEY (match_id) '
        'REFERENCES games_match (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED',
        fk_name);
END $$;

CREATE OR REPLACE FUNCTION games_move_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'games_move is append-only: moves are never updated'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF EXISTS (SELECT 1 FROM games_match WHERE id = OLD.match_id) THEN
        RAISE EXCEPTION 'games_move is append-only: delete the match, not its moves'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN OLD;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_move_append_only
    BEFORE UPDATE OR DELETE ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_move_append_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS games_move_append_only ON games_move;
DROP FUNCTION IF EXISTS games_move_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
