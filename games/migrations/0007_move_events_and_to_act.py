"""Each logged move keeps the engine's events; each match keeps the seats owing a decision.

- ``Move.events``: what ``engine.apply`` reported for that move (served redacted per
  reader by ``events/`` and ``matchUpdates``). Moves logged before this migration get
  their events back by replaying their match from its seed; a log that no longer replays
  (a rules change) keeps ``[]``. The append-only trigger is switched off for exactly this
  backfill and on again in the same transaction.
- ``Match.to_act``: ``engine.to_act`` of the snapshot while active, ``[]`` otherwise, so
  that ``my_turn=true`` is one indexed query instead of parsing every snapshot.
"""

import django.contrib.postgres.fields
from django.db import migrations, models


def backfill(apps, schema_editor):
    from rules import IllegalMove, get_engine

    Match = apps.get_model("games", "Match")
    Move = apps.get_model("games", "Move")
    # ALTER TABLE refuses to run while deferred foreign-key checks are pending
    schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    schema_editor.execute("ALTER TABLE games_move DISABLE TRIGGER games_move_append_only")
    for match in Match.objects.exclude(state__isnull=True).iterator():
        try:
            engine = get_engine(match.game)
        except KeyError:
            continue  # a game no longer registered: nothing to replay with
        if match.status == "active":
            match.to_act = list(engine.to_act(engine.from_json(match.state)))
            match.save(update_fields=["to_act"])
        replayed = []
        try:
            state = engine.setup(match.players, match.options, match.seed)
            for logged in Move.objects.filter(match_id=match.pk).order_by("ply"):
                state, events = engine.apply(state, logged.seat, logged.move)
                replayed.append((logged.pk, list(events or [])))
        except IllegalMove:
            continue  # the log does not replay under today's rules: its moves keep []
        for pk, events in replayed:
            Move.objects.filter(pk=pk).update(events=events)
    schema_editor.execute("ALTER TABLE games_move ENABLE TRIGGER games_move_append_only")


class Migration(migrations.Migration):
    dependencies = [("games", "0006_move_log_no_gaps")]

    operations = [
        migrations.AddField(
            model_name="move",
            name="events",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="match",
            name="to_act",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.PositiveSmallIntegerField(), blank=True, default=list,
                size=None),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
