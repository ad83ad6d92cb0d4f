-- Daily challenges. A game played as one has its challenge's key in `challenge`; several may run
-- in one person's DMs at once, so the one-open-game-per-channel rule leaves them out.
ALTER TABLE games ADD COLUMN challenge TEXT;
DROP INDEX one_open_game_per_channel;
CREATE UNIQUE INDEX one_open_game_per_channel ON games (coalesce(thread_id, channel_id))
    WHERE status IN ('lobby', 'active') AND challenge IS NULL;

-- The key that derives each day's seed (one row): nobody can foresee tomorrow's dice.
CREATE TABLE daily_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);

-- One entry per person, challenge and day, whatever restarts, shards or retries do: the key
-- is claimed before the game is made. `day` is the date in the zone of the server where it was
-- started (guild 0: in DMs, UTC); `closes_at` is that day's end. `score` is set when the game
-- ends or, for an entry still under way, when the day closes (it counts with what it had).
CREATE TABLE daily_entries (
    challenge TEXT NOT NULL,
    day TEXT COLLATE "C" NOT NULL,
    user_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    game_id BIGINT REFERENCES games (id),
    closes_at TEXT COLLATE "C" NOT NULL,
    score REAL,
    finished_at TEXT COLLATE "C",
    closed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (challenge, day, user_id)
);
CREATE INDEX daily_entries_open ON daily_entries (closes_at) WHERE closed = 0;
CREATE INDEX daily_entries_person ON daily_entries (user_id, day);
CREATE INDEX daily_entries_day ON daily_entries (challenge, day, guild_id);
CREATE INDEX daily_entries_server ON daily_entries (day, guild_id);
CREATE UNIQUE INDEX daily_entries_game ON daily_entries (game_id);

-- A server's day of a challenge, closed once (its leaderboard posted once) by whichever
-- process claims this row first.
CREATE TABLE daily_closings (
    guild_id BIGINT NOT NULL,
    challenge TEXT NOT NULL,
    day TEXT COLLATE "C" NOT NULL,
    closed_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, challenge, day)
);

-- What a server sets for its dailies: where the day's leaderboard goes (none: where /daily was
-- last used) and the role its season's leader is given (none: no role).
CREATE TABLE daily_servers (
    guild_id BIGINT PRIMARY KEY,
    channel_id BIGINT,
    champion_role BIGINT,
    champion_id BIGINT
);

-- People who asked for a reminder on days they have not played, in a server's zone.
CREATE TABLE daily_reminders (
    user_id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    zone TEXT NOT NULL,
    due TEXT COLLATE "C" NOT NULL
);
CREATE INDEX daily_reminders_due ON daily_reminders (due);

-- A server's season, closed once (its champion announced once).
CREATE TABLE season_closings (
    guild_id BIGINT NOT NULL,
    season TEXT NOT NULL,
    champion_id BIGINT,
    closed_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, season)
);
