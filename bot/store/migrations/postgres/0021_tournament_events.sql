-- Tournaments as community events: a format (the WBC heats, Swiss or round robin in pods, whose
-- rounds are stored as heats), a scheduled event, a role for sign-up and one for the champion.
ALTER TABLE tournaments ADD COLUMN format TEXT NOT NULL DEFAULT 'wbc';
ALTER TABLE tournaments ADD COLUMN pods TEXT;
ALTER TABLE tournaments ADD COLUMN signup_role_id BIGINT;
ALTER TABLE tournaments ADD COLUMN champion_role_id BIGINT;
ALTER TABLE tournaments ADD COLUMN event_id BIGINT;
ALTER TABLE tournaments ADD COLUMN starts_at TEXT COLLATE "C";
ALTER TABLE tournaments ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;

-- A player who withdrew: the AI finishes their running tables (forfeited) and they are not
-- paired again.
ALTER TABLE tournament_players ADD COLUMN withdrawn_at TEXT COLLATE "C";

-- A check-in window before a stage (a heat or round, the semifinal, the final): whoever has not
-- checked in when it closes is absent from that stage.
CREATE TABLE tournament_checkins (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    stage TEXT NOT NULL,
    heat INTEGER NOT NULL,
    closes_at TEXT COLLATE "C" NOT NULL,
    message_id BIGINT,
    closed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, stage, heat)
);

CREATE TABLE tournament_present (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    stage TEXT NOT NULL,
    heat INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (tournament_id, stage, heat, user_id)
);

-- A Swiss or round-robin round's byes (a bye scores and is never given twice while avoidable).
CREATE TABLE tournament_byes (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    heat INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, heat, user_id)
);

-- The one results-and-standings post of each stage, edited as its tables finish.
CREATE TABLE tournament_posts (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    stage TEXT NOT NULL,
    heat INTEGER NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, stage, heat)
);
