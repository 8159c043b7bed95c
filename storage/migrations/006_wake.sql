-- 006: wake. While an AI or away seat is on turn, `wake` holds the time those automatic moves became
-- due (the commit that left them on turn); NULL while a present human is on turn. A table whose
-- `wake` has passed is due for its clock work like one whose deadline passed (Store.claim_due), so
-- automatic moves that a failed commit or a dead process left unplayed are played by the next tick,
-- whatever happened to the claim that was meant to play them.

ALTER TABLE game_tables ADD COLUMN wake REAL;

CREATE INDEX game_tables_status_wake ON game_tables (status, wake);
