-- The one live "your turn" panel of each seat: its DM, or the channel message that pings a person
-- whose DMs are closed. A new turn's panel replaces it, and the old one loses its controls.
CREATE TABLE panels (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    dm BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- A pre-move may carry a number (a maximum bid), and the time it is made when it waits for a
-- person's pace (an automatic answer at once would tell the others it was automatic).
ALTER TABLE premoves ADD COLUMN amount INTEGER;
ALTER TABLE premoves ADD COLUMN due TEXT;
