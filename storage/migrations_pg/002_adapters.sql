-- 002: what chat adapters keep beside the tables (as storage/migrations/002_adapters.sql): per-chat
-- settings, ids of updates already handled, and per-table message refs. Apart from game_tables so
-- that writing them never bumps a table's version.

CREATE TABLE chat_settings (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    settings JSON NOT NULL,
    PRIMARY KEY (platform, chat_id)
);

CREATE TABLE processed_updates (
    platform  TEXT NOT NULL,
    update_id TEXT NOT NULL,
    at        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (platform, update_id)
);

CREATE INDEX processed_updates_at ON processed_updates (at);

CREATE TABLE table_refs (
    table_id TEXT NOT NULL,
    key      TEXT NOT NULL,
    value    JSON NOT NULL,
    PRIMARY KEY (table_id, key)
);
