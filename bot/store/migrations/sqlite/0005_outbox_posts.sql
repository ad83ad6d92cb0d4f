-- Each message an event posts is marked sent on its own, with the message Discord confirmed, so
-- a restart re-sends only what was not confirmed. An event that failed for a passing reason (a
-- 5xx, a dropped connection) waits until `retry_at`; one that can never go out keeps its error.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN retry_at TEXT;
ALTER TABLE outbox ADD COLUMN error TEXT;

CREATE TABLE outbox_posts (
    outbox_id INTEGER NOT NULL REFERENCES outbox (id),
    part TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (outbox_id, part)
);
