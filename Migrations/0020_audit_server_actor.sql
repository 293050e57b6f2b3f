-- The server itself becomes an actor of the audit trail: the email outbox writes a line when an emailed report
-- is sent, fails for good, or fails an attempt and waits for the next (delivery.sent, delivery.failed,
-- delivery.changed), so the changes feed and webhooks can follow deliveries through the trail. actor's CHECK
-- gains 'server' (without an actor_id), which takes a rebuild (Migrations/README.md). Rows are copied as they
-- are, seq included: the hash chain covers their fields, not their place in the file.
CREATE TABLE new_audit_events (
    seq INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    company_id TEXT NOT NULL,
    -- 'trainer' with actor_id; 'operator' (the command line) or 'server' (the email outbox) without one.
    actor TEXT NOT NULL CHECK (actor IN ('trainer', 'operator', 'server')),
    actor_id TEXT,
    action TEXT NOT NULL,
    subject_id TEXT,
    client_id TEXT,
    subject_salt BLOB,
    subject_digest BLOB NOT NULL,
    hash BLOB NOT NULL
);
INSERT INTO new_audit_events (seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt,
                              subject_digest, hash)
SELECT seq, at, company_id, actor, actor_id, action, subject_id, client_id, subject_salt, subject_digest, hash
FROM audit_events;
DROP TABLE audit_events;
ALTER TABLE new_audit_events RENAME TO audit_events;

-- From 0015.
CREATE INDEX audit_events_by_company ON audit_events (company_id, seq);
CREATE INDEX audit_events_by_client ON audit_events (client_id, seq);
