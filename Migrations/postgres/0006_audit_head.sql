-- The audit trail's head: the last row's place and hash, in one row. Every append on every node updates it in
-- the statement that inserts the new row, so its row lock (held to commit) orders appends and the chain cannot
-- fork, while writes that append nothing no longer wait for one another (they took one advisory lock before).
CREATE TABLE audit_head (
    single BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (single),
    seq BIGINT NOT NULL,
    hash BYTEA NOT NULL
);
INSERT INTO audit_head (seq, hash)
SELECT coalesce(max(seq), 0), coalesce((SELECT hash FROM audit_events ORDER BY seq DESC LIMIT 1), decode(repeat('00', 32), 'hex'))
FROM audit_events;
