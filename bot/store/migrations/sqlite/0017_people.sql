-- What a person sets for themself, in every server: their time zone; quiet hours (minutes after
-- their midnight) in which no reminder or nudge comes; the "you're next" heads-up; and a daily
-- digest at `digest_at` in place of reminders. `last_digest` is the day (in their zone) of the
-- last digest, claimed in the transaction that queues it; `digest_due` is when the next one is
-- due (none without the digest), so the tick reads only the people due.
CREATE TABLE people (
    user_id INTEGER PRIMARY KEY,
    zone TEXT NOT NULL,
    quiet_start INTEGER,
    quiet_end INTEGER,
    heads_up INTEGER NOT NULL DEFAULT 0,
    digest INTEGER NOT NULL DEFAULT 0,
    digest_at INTEGER NOT NULL,
    last_digest TEXT,
    digest_due TEXT
);
CREATE INDEX people_digest_due ON people (digest_due) WHERE digest_due IS NOT NULL;

-- Seats told their turn comes next: no second heads-up before that turn has come.
CREATE TABLE heads_ups (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
