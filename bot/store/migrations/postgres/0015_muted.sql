-- A person may mute a game: no reminders or nudges for their seat (their turn panel still comes,
-- since without it they could not move).
ALTER TABLE seats ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;
