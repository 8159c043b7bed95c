-- 001: tables, their action log, players, match results.
-- JSON columns are TEXT written by storage/sqlite.py. One statement may span lines, but a line
-- must not hold the end of one statement and the start of the next (the runner splits by line).

CREATE TABLE game_tables (
    id            TEXT PRIMARY KEY,
    game          TEXT NOT NULL,
    platform      TEXT NOT NULL,
    chat_id       TEXT NOT NULL,
    topic_id      TEXT,
    status        TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
    host_platform TEXT,
    host_user_id  TEXT,
    options       TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    deck          TEXT,
    seats         TEXT NOT NULL,
    version       INTEGER NOT NULL,
    state         TEXT,
    log_seq       INTEGER NOT NULL,
    deadline      REAL,
    created_at    REAL NOT NULL,
    updated_at    REAL NOT NULL,
    meta          TEXT NOT NULL
);

-- At most one active table per chat/topic, even when two processes open a lobby at once;
-- it is also the index behind active_table_for_chat (same expression and WHERE as the query).
CREATE UNIQUE INDEX game_tables_active_chat
    ON game_tables (platform, chat_id, COALESCE(topic_id, ''))
    WHERE status IN ('lobby', 'playing');

-- due_tables (status = 'playing' AND deadline <= ?) and list_tables (status IN ...).
CREATE INDEX game_tables_status_deadline ON game_tables (status, deadline);

CREATE TABLE table_log (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    kind     TEXT NOT NULL,
    seat     INTEGER,
    text     TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

CREATE TABLE players (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (platform, user_id)
);

-- No foreign key to game_tables: a result is history and must not depend on the table row living on.
CREATE TABLE match_results (
    table_id    TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    platform    TEXT NOT NULL,
    chat_id     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('finished', 'abandoned')),
    finished_at REAL NOT NULL,
    seats       TEXT NOT NULL,
    result      TEXT NOT NULL
);

CREATE INDEX match_results_chat ON match_results (platform, chat_id, finished_at);
