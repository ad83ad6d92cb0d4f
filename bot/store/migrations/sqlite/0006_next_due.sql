-- When a running game next needs the deadline tick (its next reminder mark, else its deadline),
-- so each tick reads only the games that are due instead of every running game.
ALTER TABLE games ADD COLUMN next_due TEXT;
-- Games running before this column: due at once, and scheduled properly from then on.
UPDATE games SET next_due = '' WHERE status = 'active' AND deadline IS NOT NULL;
CREATE INDEX games_next_due ON games (next_due) WHERE status = 'active' AND next_due IS NOT NULL;
