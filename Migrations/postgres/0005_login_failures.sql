-- As SQLite's 0018: failed logins per key digest (email or client address), shared by every node.
CREATE TABLE login_failures (
    key_digest BYTEA NOT NULL,
    failed_at BIGINT NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (key_digest, failed_at);
CREATE INDEX login_failures_age ON login_failures (failed_at);
