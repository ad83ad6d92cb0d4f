-- How well an AI seat added in the lobby plays (casual, standard, strong); NULL for a person's
-- seat, and a seat the AI takes over plays at standard, as the autopilot does.
ALTER TABLE seats ADD COLUMN ai_level TEXT;
