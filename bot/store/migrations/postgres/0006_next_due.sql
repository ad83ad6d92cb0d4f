-- When a running game next needs the deadline tick (its next reminder mark, else its deadline),
-- so each tick reads only the games that are due instead of every running game.
ALTER TABLE games ADD COLUMN next_due TEXT COLLATE "C";
CREATE INDEX games_next_due ON games (next_due) WHERE status = 'active' AND next_due IS NOT NULL;
