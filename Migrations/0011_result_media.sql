-- Photos and videos on results. Their bytes are kept outside this file, each sealed with AES-256-GCM under a
-- random key of its own that is stored only here (encrypted with the rest of the database): once a row is gone
-- its file cannot be read, and the file is removed right after the commit. The trigger notes every removed row
-- (deleted alone, or with its result or client by ON DELETE CASCADE), so a file whose removal a crash interrupted
-- is removed at the next start.
CREATE TABLE media (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    result_id TEXT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    -- Bytes as stored, and their SHA-256 (lower-case hex).
    bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    width INTEGER,
    height INTEGER,
    duration_seconds REAL,
    caption TEXT,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- The file's AES-256-GCM key: 32 random bytes.
    file_key BLOB NOT NULL,
    -- A photo's preview (a JPEG fitting 1024 x 1024, made when it was stored, sealed beside it): its bytes.
    preview_bytes INTEGER
);
-- A result's media in upload order; a company's total (its quota).
CREATE INDEX media_by_result ON media (result_id, created_at, id);
CREATE INDEX media_by_company ON media (company_id);

CREATE TABLE media_removed (
    id TEXT PRIMARY KEY NOT NULL
);
CREATE TRIGGER media_removed_on_delete AFTER DELETE ON media
BEGIN
    INSERT OR IGNORE INTO media_removed (id) VALUES (old.id);
END;
