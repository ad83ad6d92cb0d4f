-- Decisions a seat takes ahead of its turn (turn-based games), one row each, in the order they
-- were set: they were kept as the seat's draft steps, a row that means a secret plan.
CREATE TABLE premoves (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    position INTEGER NOT NULL,
    premove TEXT NOT NULL,
    scope TEXT NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (game_id, seat, position)
);
INSERT INTO premoves (game_id, seat, position, premove, scope, updated_at)
SELECT d.game_id, d.seat, step.position - 1, step.value ->> 'premove',
       (step.value -> 'scope')::text, d.updated_at
FROM drafts AS d, jsonb_array_elements(d.steps::jsonb) WITH ORDINALITY AS step (value, position)
WHERE jsonb_typeof(step.value) = 'object' AND step.value ? 'premove';
DELETE FROM drafts WHERE game_id IN (SELECT game_id FROM premoves);
