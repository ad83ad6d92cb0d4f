-- A move is stored before its author is answered; if the process dies in between, the reply
-- it owed becomes a DM once `due` passes (the answer, once sent, deletes the row).
CREATE TABLE owed_replies (
    interaction_id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    words TEXT NOT NULL,
    due TEXT NOT NULL
);
CREATE INDEX owed_replies_due ON owed_replies (due);
