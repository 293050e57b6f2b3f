-- Media bytes in the database, so that every node reaches them (the embedded store keeps them in files under the
-- data folder). Each stored file (an upload or a preview made from it) is a row of media_blobs and its chunks,
-- sealed exactly as the embedded files' chunks are (AES-256-GCM under the medium's own key, which media.file_key
-- holds sealed in turn; a chunk's nonce is its index, its additional data the id, index and whether it is the
-- last). A blob is readable once `finished` is 1; an upload a node dropped half-way is swept after an hour.
CREATE TABLE media_blobs (
    media_id TEXT NOT NULL,
    variant TEXT NOT NULL CHECK (variant IN ('original', 'preview', 'small')),
    chunk_size BIGINT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    started_at BIGINT NOT NULL,
    PRIMARY KEY (media_id, variant)
);

CREATE TABLE media_chunks (
    media_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    chunk_index BIGINT NOT NULL,
    sealed BYTEA NOT NULL,
    PRIMARY KEY (media_id, variant, chunk_index),
    FOREIGN KEY (media_id, variant) REFERENCES media_blobs (media_id, variant) ON DELETE CASCADE
);
-- Sealed bytes are not compressible: stored as they are, out of line.
ALTER TABLE media_chunks ALTER COLUMN sealed SET STORAGE EXTERNAL;
