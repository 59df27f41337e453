-- An account's puzzle rating, made by its first rated attempt (an account that never tries
-- a puzzle has none and is a newcomer). `attempts` counts the rated attempts and is the
-- row's version: an attempt names the count it started from, so it is rated once.
CREATE TABLE puzzle_ratings (
    account_id TEXT PRIMARY KEY NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
-- The puzzles an account's rated attempts were on: each counts once per account, so a
-- puzzle whose solution has been shown cannot be farmed for rating.
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
