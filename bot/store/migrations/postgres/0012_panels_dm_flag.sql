-- Flags are stored as 0/1 on both backends (the repository writes every bool as an integer);
-- 0009 declared this one BOOLEAN, so recording a turn panel failed on PostgreSQL.
ALTER TABLE panels ALTER COLUMN dm TYPE INTEGER USING dm::integer;
