-- An account's notifications: what happened (`kind`), its details as JSON (`data`: the
-- game, who, the tournament), when, and whether it was read. Kept 30 days.
CREATE TABLE notifications (
    id TEXT PRIMARY KEY NOT NULL,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    read_at BIGINT
);
CREATE INDEX notifications_account ON notifications (account_id, created_at);
