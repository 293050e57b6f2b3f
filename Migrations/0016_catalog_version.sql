-- A number that moves with every exercise pack stored (any owner), in the storing transaction. Every
-- authenticated request reads it with its session (one query), so a server that did not store the pack itself
-- (another node on a shared database, or the command line's import) reloads its in-memory catalog before it
-- answers: nothing is scored or drawn with a pack list older than what was acknowledged.
CREATE TABLE catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, (SELECT count(*) FROM exercise_packs));
