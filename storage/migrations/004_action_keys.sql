-- 004: idempotency keys. Every platform message or button press that changes a table carries a key
-- from the platform (a Telegram update id, a Discord interaction id). The key is written in the same
-- transaction as the change it caused, so a redelivered update finds it and is answered with what the
-- first delivery did, never applied a second time (even when the first process died right after its
-- COMMIT, or two processes receive the same update at once).

CREATE TABLE action_keys (
    key      TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    version  INTEGER NOT NULL,  -- the table version the keyed change produced
    reply    TEXT NOT NULL,     -- JSON: what the table service answers a repeat with
    at       REAL NOT NULL
) WITHOUT ROWID;

CREATE INDEX action_keys_at ON action_keys (at);
