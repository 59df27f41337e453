-- The lobby lists waiting open games newest first; the janitor looks for games in progress
-- that nobody has touched for a while. Both read an index instead of every row.
CREATE INDEX games_lobby ON games (listed, created_at);
CREATE INDEX games_idle ON games (status, updated_at);
DROP INDEX games_status;
