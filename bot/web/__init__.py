"""The web companion: pages served by the bot process itself, from the same database, with the
games' own renderers. Links to them are signed; nothing hidden in the channel shows here."""
