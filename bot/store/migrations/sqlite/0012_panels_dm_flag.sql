-- PostgreSQL's twin turns the panels' dm flag into an integer; SQLite stores it as one already.
SELECT 1;
