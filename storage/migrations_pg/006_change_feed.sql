-- 006: the change feed (storage/postgres_feed.py). Every commit that moves a table's version
-- NOTIFYs its id on channel rummy_tables, inside the committing transaction: PostgreSQL delivers it
-- to the listeners (the web servers of every process) at COMMIT, and never for a rolled-back one.
-- Claims and other updates that leave the version alone notify nothing.

CREATE FUNCTION rummy_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('rummy_tables', NEW.id);
    RETURN NULL;
END
$$;

CREATE TRIGGER game_tables_changed AFTER UPDATE ON game_tables
    FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION rummy_table_changed();
