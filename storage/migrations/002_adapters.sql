-- 002: what chat adapters keep beside the tables: per-chat settings (language, whether a user's
-- DM works), ids of updates already handled (duplicate suppression), and per-table message refs.
-- Kept apart from game_tables so that writing them never bumps a table's version (and so never
-- makes the buttons on screen stale).

CREATE TABLE chat_settings (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    settings TEXT NOT NULL,
    PRIMARY KEY (platform, chat_id)
);

CREATE TABLE processed_updates (
    platform  TEXT NOT NULL,
    update_id TEXT NOT NULL,
    at        REAL NOT NULL,
    PRIMARY KEY (platform, update_id)
) WITHOUT ROWID;

CREATE INDEX processed_updates_at ON processed_updates (at);

CREATE TABLE table_refs (
    table_id TEXT NOT NULL,
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (table_id, key)
) WITHOUT ROWID;
