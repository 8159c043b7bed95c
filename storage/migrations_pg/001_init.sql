-- 001: tables, their action log, players, match results (PostgreSQL; the same schema as
-- storage/migrations/001_init.sql, version for version).
-- JSON columns are `json`, not `jsonb`: json keeps the text storage/postgres.py wrote (key order,
-- number spelling), so a record comes back exactly as SQLite and the memory store give it back.
-- Ids and names that are sorted on are COLLATE "C": byte order, as SQLite sorts, whatever the
-- database's default collation.

CREATE TABLE game_tables (
    id            TEXT COLLATE "C" PRIMARY KEY,
    game          TEXT NOT NULL,
    platform      TEXT NOT NULL,
    chat_id       TEXT NOT NULL,
    topic_id      TEXT,
    status        TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
    host_platform TEXT,
    host_user_id  TEXT,
    options       JSON NOT NULL,
    seed          BIGINT NOT NULL,
    deck          JSON,
    seats         JSON NOT NULL,
    version       INTEGER NOT NULL,
    state         JSON,
    log_seq       INTEGER NOT NULL,
    deadline      DOUBLE PRECISION,
    created_at    DOUBLE PRECISION NOT NULL,
    updated_at    DOUBLE PRECISION NOT NULL,
    meta          JSON NOT NULL
);

-- At most one active table per chat/topic, even when two processes open a lobby at once: the
-- second INSERT waits for the first transaction and then fails on this index.
CREATE UNIQUE INDEX game_tables_active_chat
    ON game_tables (platform, chat_id, COALESCE(topic_id, ''))
    WHERE status IN ('lobby', 'playing');

CREATE INDEX game_tables_status_deadline ON game_tables (status, deadline);

CREATE TABLE table_log (
    table_id TEXT COLLATE "C" NOT NULL REFERENCES game_tables (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    kind     TEXT NOT NULL,
    seat     INTEGER,
    text     TEXT NOT NULL,
    at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE players (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (platform, user_id)
);

-- No foreign key to game_tables: a result is history and must not depend on the table row living on.
-- `recorded` stands in for SQLite's rowid: results finished at the same moment list the later one first.
CREATE TABLE match_results (
    table_id    TEXT COLLATE "C" PRIMARY KEY,
    game        TEXT NOT NULL,
    platform    TEXT NOT NULL,
    chat_id     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
    finished_at DOUBLE PRECISION NOT NULL,
    seats       JSON NOT NULL,
    result      JSON NOT NULL,
    recorded    BIGINT GENERATED ALWAYS AS IDENTITY
);

CREATE INDEX match_results_chat ON match_results (platform, chat_id, finished_at);
