-- Every process start, so operators can see restarts and which version ran.
CREATE TABLE starts (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    version TEXT NOT NULL
);
