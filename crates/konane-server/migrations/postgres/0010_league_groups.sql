-- Correspondence leagues: each season is a tournament of kind `league`, its players dealt
-- into divisions (0 at the top) and groups within them when the season starts. A player
-- with no division in a started season joined it late and plays from the next.
ALTER TABLE tournament_players ADD COLUMN division BIGINT;
ALTER TABLE tournament_players ADD COLUMN group_no BIGINT;
