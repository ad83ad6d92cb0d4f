-- Discord takes one IDENTIFY per 5 seconds per bucket (shard id modulo max_concurrency) across
-- every process of the bot: the time each bucket last identified, so processes take turns.
CREATE TABLE identify_slots (
    bucket INTEGER PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL
);
