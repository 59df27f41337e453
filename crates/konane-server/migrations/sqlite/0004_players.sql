-- Accounts: a name (shown as registered; `name_key` is its lower case, which is what makes
-- two names one) and the argon2id hash of the password.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
-- A logged-in browser: the SHA-256 of its cookie's token, never the token itself.
CREATE TABLE sessions (
    token_digest TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
-- One row per account and category, made with the account; `games` counts the rated games
-- and is the row's version: a rated result names the count it started from.
CREATE TABLE ratings (
    account_id TEXT NOT NULL,
    category TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, category)
);
CREATE INDEX ratings_board ON ratings (category, rating);
-- Every finished game of an account, written in the transaction that stores the result:
-- the profile's archive, its counts and (rated games) its rating history.
CREATE TABLE player_games (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    color TEXT NOT NULL,
    outcome TEXT NOT NULL,
    reason TEXT NOT NULL,
    opponent TEXT,
    opponent_account TEXT,
    opponent_level BIGINT,
    category TEXT,
    rated BIGINT NOT NULL,
    size TEXT NOT NULL,
    moves BIGINT NOT NULL,
    rating_before REAL,
    rating_after REAL,
    ended_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX player_games_recent ON player_games (account_id, ended_at);
-- Failed logins and new accounts, per address and per account, for their rate limits.
CREATE TABLE attempts (
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX attempts_subject ON attempts (kind, subject, at);
CREATE INDEX attempts_age ON attempts (at);
