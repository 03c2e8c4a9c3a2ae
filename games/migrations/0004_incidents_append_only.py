"""Incidents are append-only in the database too, as the move log is (0002): a trigger
refuses UPDATE and a DELETE while the match exists, and the foreign key becomes ON DELETE
CASCADE. (Its own migration: Django creates 0003's foreign keys at the end of it.)"""

from django.db import migrations

INCIDENTS_APPEND_ONLY = """
DO $$
DECLARE fk_name text;
BEGIN
    SELECT conname INTO fk_name FROM pg_constraint
     WHERE conrelid = 'games_incident'::regclass AND contype = 'f'
       AND confrelid = 'games_match'::regclass;
    EXECUTE format('ALTER TABLE games_incident DROP CONSTRAINT %I', fk_name);
    EXECUTE format(
        'ALTER TABLE games_incident ADD CONSTRAINT %I FOREIGN KEY (match_id) '
        'REFERENCES games_match (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED',
        fk_name);
END $$;

CREATE OR REPLACE FUNCTION games_incident_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        RAISE EXCEPTION 'games_incident is append-only: incidents are never updated'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF EXISTS (SELECT 1 FROM games_match WHERE id = OLD.match_id) THEN
        RAISE EXCEPTION 'games_incident is append-only: delete the match, not its incidents'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN OLD;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_incident_append_only
    BEFORE UPDATE OR DELETE ON games_incident
    FOR EACH ROW EXECUTE FUNCTION games_incident_append_only();
"""

INCIDENTS_APPEND_ONLY_BACKWARD = """
DROP TRIGGER IF EXISTS games_incident_append_only ON games_incident;
DROP FUNCTION IF EXISTS games_incident_append_only();
"""



class Migration(migrations.Migration):
    dependencies = [("games", "0003_clocks_and_incidents")]

    operations = [migrations.RunSQL(INCIDENTS_APPEND_ONLY, INCIDENTS_APPEND_ONLY_BACKWARD)]
