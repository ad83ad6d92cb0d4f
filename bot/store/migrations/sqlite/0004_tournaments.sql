-- Tournaments in the format of WBC 2019 (shared/seeds/003): heats, a semifinal, a final.
-- Results come from the games' own results rows; nothing is handed in by hand.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    organiser_id INTEGER NOT NULL,
    stage TEXT NOT NULL CHECK (stage IN ('registration', 'heat', 'semifinal', 'final', 'finished')),
    heats INTEGER NOT NULL,
    heats_started INTEGER NOT NULL DEFAULT 0,
    config TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    stage TEXT NOT NULL,
    heat INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games (id),
    PRIMARY KEY (tournament_id, stage, heat, table_no)
);

-- The recorded random rolls of the last seeding tiebreak, so seedings can be replayed.
CREATE TABLE tournament_rolls (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    stage TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    roll REAL NOT NULL,
    PRIMARY KEY (tournament_id, stage, user_id)
);
