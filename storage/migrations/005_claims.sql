-- 005: claims. Several bot processes may share one database; a table's clock work (a passed deadline,
-- AI turns a crash cut short) must be done by exactly one of them. A process claims a table for a
-- lease before doing that work and releases it after; a process that dies keeps its row until the
-- lease runs out, and then another process takes the table over. A claim row left behind (expired,
-- never released) is exactly "a turn its owner did not finish". A table of its own, so claiming never
-- touches a table's row or version.

CREATE TABLE table_claims (
    table_id TEXT PRIMARY KEY,
    owner    TEXT NOT NULL,  -- a per-process id (host, pid, random)
    until    REAL NOT NULL   -- the lease's end; after it the claim may be taken
) WITHOUT ROWID;

CREATE INDEX table_claims_until ON table_claims (until);
