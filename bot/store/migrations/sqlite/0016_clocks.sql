-- Clocks that fit lives. A game's clock began at `clock_started` (reminders fall within it) and
-- stands still from `paused_at` while a person it waits for is on vacation. A time-bank seat
-- keeps `bank_seconds` between turns; `turn_since` is when its running turn began.
ALTER TABLE games ADD COLUMN clock_started TEXT;
ALTER TABLE games ADD COLUMN paused_at TEXT;
ALTER TABLE seats ADD COLUMN bank_seconds REAL;
ALTER TABLE seats ADD COLUMN turn_since TEXT;

-- A person's declared absence, from `starts` to `ends`; the days it spans count against a
-- yearly allowance.
CREATE TABLE vacations (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    starts TEXT NOT NULL,
    ends TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX vacations_by_user ON vacations (user_id, ends);
