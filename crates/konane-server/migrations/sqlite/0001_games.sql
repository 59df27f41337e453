-- One row per game. The game itself (settings, seats, moves, clock, result) is JSON text,
-- replayed through the rules on load; `seq` counts its changes and guards every update.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    seq BIGINT NOT NULL,
    status TEXT NOT NULL,
    listed BIGINT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX games_status ON games (status);
