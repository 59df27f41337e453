-- Tournaments (arena, Swiss, round robin). A tournament's settings are JSON text (`data`),
-- read once into a typed tournament; the columns are what the lists and the director ask
-- for. `round` counts the rounds (Swiss, round robin) or the arena's pairing waves paired so
-- far: pairing is one transaction that moves it on only from the value it read, so of
-- several instances exactly one pairs each round or wave. `version` counts every change a
-- page shows (a join, a game's end), so the pages of every instance see it.
-- `schedule_key` names a site event of the schedule (rule and start) so that instances
-- creating the coming events at once create each only once.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    by_site BIGINT NOT NULL,
    schedule_key TEXT UNIQUE,
    created_by TEXT,
    data TEXT NOT NULL,
    round BIGINT NOT NULL,
    version BIGINT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT,
    finished_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);

-- Who plays: an account with the rating it entered with. `seat` is its number in a round
-- robin's table (fixed at the start); `missed` counts games lost in a row without a move
-- (two pause the player); `place` is the final rank, written when the tournament ends.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    seat BIGINT,
    missed BIGINT NOT NULL,
    place BIGINT,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX tournament_players_account ON tournament_players (account_id, place);

-- Each game of a tournament, written with the game in one transaction; its end (winner,
-- whether the loser never moved) is written in the transaction that stores the game's end.
CREATE TABLE tournament_games (
    game_id TEXT PRIMARY KEY NOT NULL,
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    winner TEXT,
    absent BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    ended_at BIGINT
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament_id, round);

-- A player who sat a round out (Swiss, round robin): one point.
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, account_id)
);
