"""The move log has no gaps, in the database too: a move is inserted only at the next ply
of its match's log (0, 1, 2...). The runtime role must be able to INSERT moves, so the
privileges alone cannot refuse a move "at ply 999"; this trigger does, whoever inserts.
Two moves racing for the same ply still meet the unique constraint (move_unique_ply).
"""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION games_move_no_gaps() RETURNS trigger AS $$
DECLARE next_ply integer;
BEGIN
    SELECT COALESCE(max(ply) + 1, 0) INTO next_ply FROM games_move
     WHERE match_id = NEW.match_id;
    IF NEW.ply <> next_ply THEN
        RAISE EXCEPTION 'games_move has no gaps: the next ply of match % is %, not %',
            NEW.match_id, next_ply, NEW.ply
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_move_no_gaps
    BEFORE INSERT ON games_move
    FOR EACH ROW EXECUTE FUNCTION games_move_no_gaps();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS games_move_no_gaps ON games_move;
DROP FUNCTION IF EXISTS games_move_no_gaps();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0005_match_admin_group")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
