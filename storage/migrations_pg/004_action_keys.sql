-- 004: idempotency keys (as storage/migrations/004_action_keys.sql). A platform's key for a change
-- (a Telegram update id, a Discord interaction id) is written in the same transaction as the change,
-- so a redelivered update is answered with what the first delivery did, never applied twice.

CREATE TABLE action_keys (
    key      TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    version  INTEGER NOT NULL,  -- the table version the keyed change produced
    reply    JSON NOT NULL,     -- what the table service answers a repeat with
    at       DOUBLE PRECISION NOT NULL
);

CREATE INDEX action_keys_at ON action_keys (at);
