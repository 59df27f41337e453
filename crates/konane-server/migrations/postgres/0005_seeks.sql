-- Quick pairing: a player waiting for an opponent with a time control. `id` is the seek's
-- secret, known to its page only; once paired, `game_id` and `token` (the seeker's seat)
-- are what the page fetches. A seek whose page stops asking (`seen_at`) is dead.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT,
    name TEXT,
    rating DOUBLE PRECISION NOT NULL,
    rated BIGINT NOT NULL,
    initial_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    status TEXT NOT NULL,
    game_id TEXT,
    token TEXT,
    created_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL
);
CREATE INDEX seeks_waiting ON seeks (status, initial_ms, increment_ms, rated, created_at);
