-- 008: a process claims only the tables it can show (as storage/migrations/007_claim_scope.sql):
-- `claim_due` filters by platform (and Discord's shard through `shard_key`) and claims lobbies whose
-- `expires` passed as it claims passed deadlines. Partial indexes: one status's rows in each.

ALTER TABLE game_tables ADD COLUMN expires DOUBLE PRECISION;

ALTER TABLE game_tables ADD COLUMN shard_key BIGINT;

UPDATE game_tables SET expires = (meta::jsonb ->> 'lobby_expires')::double precision WHERE status = 'lobby';

DROP INDEX game_tables_status_wake;

CREATE INDEX game_tables_due_deadline ON game_tables (platform, deadline) WHERE status = 'playing';

CREATE INDEX game_tables_due_wake ON game_tables (platform, wake) WHERE status = 'playing';

CREATE INDEX game_tables_lobby_expires ON game_tables (platform, expires) WHERE status = 'lobby';
