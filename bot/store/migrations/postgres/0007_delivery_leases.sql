-- Several bot processes share one database: a game's outbox events are delivered by the one
-- process holding its lease, in order, and a lease left by a process that died lapses at `until`
-- so another process finishes the work.
CREATE TABLE delivery_leases (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    owner TEXT NOT NULL,
    until TEXT COLLATE "C" NOT NULL
);
-- Which shards a process started with, beside its version.
ALTER TABLE starts ADD COLUMN shards TEXT;
-- A game's unsent events, for the process delivering that game.
CREATE INDEX outbox_pending_by_game ON outbox (game_id, id) WHERE sent_at IS NULL;
