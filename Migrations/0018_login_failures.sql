-- Failed logins, counted per email and per client address by the login rate limit. Kept here rather than in a
-- node's memory so that every node behind a balancer counts the same failures. A key is the SHA-256 of what it
-- counts ("email:…" or "address:…"): the table says how often, never which email or address. Rows older than the
-- limit's window are deleted as new ones are written.
CREATE TABLE login_failures (
    key_digest BLOB NOT NULL,
    failed_at INTEGER NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (key_digest, failed_at);
CREATE INDEX login_failures_age ON login_failures (failed_at);
