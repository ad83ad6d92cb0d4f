-- One immutable row per seat when a game ends (finished, abandoned mid-game, or cancelled in
-- the lobby). Ratings, leaderboards and tournaments are all derived from these rows.
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    game TEXT NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    user_id INTEGER,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('finished', 'adjudicated', 'abandoned', 'cancelled')),
    score REAL,
    rank INTEGER,
    tiebreak TEXT NOT NULL,
    primary_measure REAL,
    secondary_measure REAL,
    players INTEGER NOT NULL,
    variants TEXT NOT NULL,
    is_ai INTEGER NOT NULL,
    replaced_by_ai INTEGER NOT NULL,
    left_game INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    finished_at TEXT NOT NULL,
    UNIQUE (game_id, seat)
);
CREATE INDEX results_by_scope ON results (game, guild_id, finished_at);
CREATE INDEX results_by_user ON results (user_id, finished_at);

CREATE TRIGGER results_are_immutable BEFORE UPDATE ON results
BEGIN
    SELECT RAISE(ABORT, 'results are immutable');
END;

CREATE TRIGGER results_are_kept BEFORE DELETE ON results
BEGIN
    SELECT RAISE(ABORT, 'results are kept');
END;

-- A cache of ratings, rebuilt from `results` at will; scope 0 is "all servers".
CREATE TABLE ratings (
    scope INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (scope, game, user_id)
);

CREATE TABLE rating_history (
    scope INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (scope, game, user_id, game_id)
);
