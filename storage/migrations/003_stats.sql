-- 003: what the standings are built from. A finished match is written to match_results in the same
-- transaction as the table's final snapshot (Store.commit(result=...)); rating it is a second,
-- idempotent step (Store.rate_result) that flips `rated`, so a crash between the two is caught up
-- later and never counted twice.

ALTER TABLE match_results ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- The queue of results still to rate: tiny, so a partial index keeps finding it free.
CREATE INDEX match_results_unrated ON match_results (finished_at) WHERE rated = 0 AND status = 'finished';

-- One row per seat of a counted (finished) match; AI seats are kept with kind = 'ai' and never ranked.
CREATE TABLE match_players (
    table_id    TEXT NOT NULL,
    seat        INTEGER NOT NULL,
    platform    TEXT NOT NULL,
    chat_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    finished_at REAL NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
    user_id     TEXT,
    name        TEXT NOT NULL,
    team        TEXT,
    place       INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    best_round  INTEGER,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- A chat's board for a period: one range of this index, then a group by player.
CREATE INDEX match_players_chat ON match_players (platform, chat_id, game, finished_at);
-- The global board for a period, and /stats of one player.
CREATE INDEX match_players_game ON match_players (platform, game, finished_at);
CREATE INDEX match_players_user ON match_players (platform, user_id, finished_at);

-- Current skill per subject: a player ('p:<user_id>') or a team ('t:<user_id>+<user_id>'), per game,
-- in one chat (scope = chat id) or across all chats of the platform (scope = '*').
CREATE TABLE ratings (
    platform   TEXT NOT NULL,
    scope      TEXT NOT NULL,
    game       TEXT NOT NULL,
    subject    TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('player', 'team')),
    name       TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    rating     REAL NOT NULL,
    matches    INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (platform, scope, game, subject)
) WITHOUT ROWID;

-- The all-time board: the top of one (platform, scope, game) range, already in rating order.
CREATE INDEX ratings_board ON ratings (platform, scope, game, kind, rating);

CREATE TABLE team_names (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    team     TEXT NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (platform, chat_id, team)
) WITHOUT ROWID;
