-- The idle and live look-ups find games by the minute of their last change, which a move
-- changes once a minute at most, instead of its millisecond, which every move changes: a
-- move then changes no indexed column and adds no index entry.
ALTER TABLE games ADD COLUMN changed_minute BIGINT NOT NULL DEFAULT 0;
UPDATE games SET changed_minute = updated_at / 60000;
DROP INDEX games_idle;
CREATE INDEX games_changed ON games (status, changed_minute);
-- With room left in each page, PostgreSQL writes a game's new row beside the old one and
-- adds no index entries at all (a HOT update): half of each page is kept for that.
ALTER TABLE games SET (fillfactor = 50);
