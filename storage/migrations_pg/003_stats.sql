-- 003: what the standings are built from (as storage/migrations/003_stats.sql). A finished match is
-- written to match_results with the table's final snapshot; rating it is a second, idempotent step
-- (Store.rate_result) that flips `rated`, so a crash between the two is caught up and never counted twice.

ALTER TABLE match_results ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

CREATE INDEX match_results_unrated ON match_results (finished_at) WHERE NOT rated AND status = 'finished';

CREATE TABLE match_players (
    table_id    TEXT COLLATE "C" NOT NULL,
    seat        INTEGER NOT NULL,
    platform    TEXT NOT NULL,
    chat_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
    user_id     TEXT COLLATE "C",
    name        TEXT COLLATE "C" NOT NULL,
    team        TEXT COLLATE "C",
    place       INTEGER NOT NULL,
    won         BOOLEAN NOT NULL,
    score       INTEGER NOT NULL,
    best_round  INTEGER,
    PRIMARY KEY (table_id, seat)
);

CREATE INDEX match_players_chat ON match_players (platform, chat_id, game, finished_at);
CREATE INDEX match_players_game ON match_players (platform, game, finished_at);
CREATE INDEX match_players_user ON match_players (platform, user_id, finished_at);

-- Current skill per subject ('p:<user_id>' or 't:<user_id>+<user_id>'), per game, in one chat
-- (scope = chat id) or across all chats of the platform (scope = '*').
CREATE TABLE ratings (
    platform   TEXT NOT NULL,
    scope      TEXT NOT NULL,
    game       TEXT COLLATE "C" NOT NULL,
    subject    TEXT COLLATE "C" NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('player', 'team')),
    name       TEXT NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    matches    INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (platform, scope, game, subject)
);

CREATE INDEX ratings_board ON ratings (platform, scope, game, kind, rating);

CREATE TABLE team_names (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    team     TEXT NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (platform, chat_id, team)
);
