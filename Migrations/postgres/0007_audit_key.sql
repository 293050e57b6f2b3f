-- The audit trail is chained under a key the database does not hold (HMAC-SHA-256, HEALTHWHEEL_AUDIT_KEY or
-- healthwheel.audit.key): rewriting a row and hashing every later one again takes that key. This one row says
-- which key: key_check is a code of a fixed text under it, from which the key cannot be worked out. The first
-- node to start with a key fills it (chaining again, under the key, a trail written before keys existed, and
-- audit_head with it); every node with another key is refused.
CREATE TABLE audit_key (
    single BIGINT PRIMARY KEY DEFAULT 1 CHECK (single = 1),
    key_check BYTEA NOT NULL
);
