-- 007: wake (as storage/migrations/006_wake.sql). While an AI or away seat is on turn, `wake` holds the
-- time those automatic moves became due; NULL while a present human is on turn. Store.claim_due takes
-- a playing table whose deadline or wake has passed.

ALTER TABLE game_tables ADD COLUMN wake DOUBLE PRECISION;

CREATE INDEX game_tables_status_wake ON game_tables (status, wake);
