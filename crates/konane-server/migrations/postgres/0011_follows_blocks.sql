-- Players connected: who follows whom, who blocks whom (a blocked player cannot challenge
-- the blocker or be paired with them), and when an account was last seen (an instance
-- writes it at most once a minute per account), which makes it "online" for five minutes.
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_followed ON follows (followed);
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks (blocked);
ALTER TABLE accounts ADD COLUMN seen_at BIGINT;
