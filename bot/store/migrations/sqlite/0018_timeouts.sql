-- The seats that timed out in a game, found without reading its whole log: a person's
-- reliability looks up each of their last 20 games.
CREATE INDEX actions_timeouts ON actions (game_id, seat) WHERE source = 'timeout';
