-- The unfinished games an account holds a seat in, so that any device it logs in on lists
-- (and can play) them: a row is written when an account takes a seat and removed in the
-- transaction that stores the game's end, so the table stays as small as the games in
-- progress.
CREATE TABLE account_games (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX account_games_game ON account_games (game_id);
