-- A game is its seed plus an append-only action log; `snapshot` caches the state after `version`
-- actions. `version` also serves optimistic locking: every write names the version it read.
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    config TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    snapshot TEXT,
    deadline TEXT,
    lobby_message_id INTEGER,
    status_message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
-- One open table (lobby or running) per channel or thread.
CREATE UNIQUE INDEX one_open_game_per_channel ON games (coalesce(thread_id, channel_id))
    WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    is_ai INTEGER NOT NULL DEFAULT 0,
    replaced_by_ai INTEGER NOT NULL DEFAULT 0,
    left_game INTEGER NOT NULL DEFAULT 0,
    timeouts INTEGER NOT NULL DEFAULT 0,
    dms_closed INTEGER NOT NULL DEFAULT 0,
    reminders_sent INTEGER NOT NULL DEFAULT 0,
    nudged INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('player', 'chance', 'ai', 'timeout')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- A seat's plan under construction, kept so nothing is lost between commands or restarts.
CREATE TABLE drafts (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    round INTEGER NOT NULL,
    steps TEXT NOT NULL,
    vacation INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- Posts and DMs owed to people, written in the same transaction as the change they report and
-- delivered afterwards, so a crash between commit and delivery only delays them.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    sent_at TEXT
);
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;
