-- What a server (guild) sets for its games: the time zone and hours in which deadlines may
-- fall. A game copies them when it opens.
CREATE TABLE servers (
    guild_id INTEGER PRIMARY KEY,
    zone TEXT NOT NULL,
    hours_start INTEGER NOT NULL,
    hours_end INTEGER NOT NULL
);
