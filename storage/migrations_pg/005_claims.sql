-- 005: claims (as storage/migrations/005_claims.sql). A process claims a table for a lease before it
-- applies a passed deadline or plays AI turns, and releases it after; a dead process's claim expires
-- and another process takes the table over. Claiming locks the game_tables row with
-- FOR UPDATE SKIP LOCKED, so two processes ticking at once divide the due tables between them.

CREATE TABLE table_claims (
    table_id TEXT PRIMARY KEY,
    owner    TEXT NOT NULL,
    until    DOUBLE PRECISION NOT NULL
);

CREATE INDEX table_claims_until ON table_claims (until);
