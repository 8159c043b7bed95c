-- 009: the change feed's NOTIFY moves from a per-row trigger (006) to the group writer, which tells the
-- ids of all the tables a batch committed in one NOTIFY before the batch's COMMIT
-- (storage/postgres_writer.py): one notification per batch, not one per move.

DROP TRIGGER game_tables_changed ON game_tables;

DROP FUNCTION rummy_table_changed();
