-- The audit trail is chained under a key the database does not hold (HMAC-SHA-256, HEALTHWHEEL_AUDIT_KEY or
-- healthwheel.audit.key): rewriting a row and hashing every later one again takes that key. This one row says
-- which key: key_check is a code of a fixed text under it, from which the key cannot be worked out. The server
-- fills it at its first start with a key (chaining again, under the key, a trail written before keys existed)
-- and refuses another key afterwards.
CREATE TABLE audit_key (
    single INTEGER PRIMARY KEY DEFAULT 1 CHECK (single = 1),
    key_check BLOB NOT NULL
);
