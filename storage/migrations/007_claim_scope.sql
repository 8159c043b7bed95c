-- 007: a process claims only the tables it can show (issue 27). `claim_due` filters by platform (and,
-- for Discord, by the guild's shard through `shard_key`), and claims lobbies whose `expires` passed
-- as it claims passed deadlines, instead of every process reading every open lobby at every tick.
-- Partial indexes: only the rows of one status are in each, so finished tables cost them nothing.

ALTER TABLE game_tables ADD COLUMN expires REAL;

ALTER TABLE game_tables ADD COLUMN shard_key INTEGER;

UPDATE game_tables SET expires = json_extract(meta, '$.lobby_expires') WHERE status = 'lobby';

DROP INDEX game_tables_status_wake;

CREATE INDEX game_tables_due_deadline ON game_tables (platform, deadline) WHERE status = 'playing';

CREATE INDEX game_tables_due_wake ON game_tables (platform, wake) WHERE status = 'playing';

CREATE INDEX game_tables_lobby_expires ON game_tables (platform, expires) WHERE status = 'lobby';
