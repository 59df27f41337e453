-- One row per puzzle of the shipped set (data/puzzles.txt), loaded on first start. `body`
-- is the puzzle's line of that file; the rating moves with every rated attempt.
-- `themes` is ",stop-early,tempo," so that one theme is found with LIKE '%,tempo,%'.
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY NOT NULL,
    size TEXT NOT NULL,
    themes TEXT NOT NULL,
    body TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts BIGINT NOT NULL,
    solved BIGINT NOT NULL
);
CREATE INDEX puzzles_rating ON puzzles (size, rating);
