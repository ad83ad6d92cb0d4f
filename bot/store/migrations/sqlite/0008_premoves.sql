-- Decisions a seat takes ahead of its turn (turn-based games), one row each, in the order they
-- were set: they were kept as the seat's draft steps, a row that means a secret plan.
CREATE TABLE premoves (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    position INTEGER NOT NULL,
    premove TEXT NOT NULL,
    scope TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, position)
);
INSERT INTO premoves (game_id, seat, position, premove, scope, updated_at)
SELECT d.game_id, d.seat, step.key, json_extract(step.value, '$.premove'),
       json(json_extract(step.value, '$.scope')), d.updated_at
FROM drafts AS d, json_each(d.steps) AS step
WHERE json_type(step.value) = 'object' AND json_extract(step.value, '$.premove') IS NOT NULL;
DELETE FROM drafts WHERE game_id IN (SELECT game_id FROM premoves);
