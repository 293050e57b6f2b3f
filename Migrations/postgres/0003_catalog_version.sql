-- As SQLite's 0016: the number every authenticated request reads with its session, which moves with every
-- exercise pack stored, so each node reloads its catalog before answering once another node stored a pack.
CREATE TABLE catalog_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (1, (SELECT count(*) FROM exercise_packs));
