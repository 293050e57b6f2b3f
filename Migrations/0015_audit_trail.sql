-- The audit trail: who created, changed, deleted, exported, erased, emailed or viewed as a report which record,
-- and when. A row is written in the same transaction as the change it describes, so a change that rolls back
-- leaves none. Rows name records by id only: no health value and no text a user entered.
--
-- Append-only: no route updates or deletes a row. The one exception is erasure (GDPR Art. 17): erasing a client
-- blanks the erasable part of every row about them (subject_id, client_id, subject_salt) and keeps the rest, so
-- the trail still says that something was done, by whom and when, but no longer to whom; the erasure's own row
-- keeps the client's id.
--
-- Hash chain (`healthwheel audit verify`): hash = SHA-256(previous row's hash, or 32 zero bytes for the first,
-- then the row's kept fields as text, then subject_digest), where subject_digest = SHA-256(subject_salt,
-- subject_id, client_id) is computed when the row is written and kept after erasure. Changing any kept field, or
-- an erasable one that is still there, breaks the chain at that row.
CREATE TABLE audit_events (
    -- The order rows were written in: 1, 2, … (the rowid).
    seq INTEGER PRIMARY KEY,
    -- Milliseconds since 1970.
    at INTEGER NOT NULL,
    -- No foreign keys: the trail outlives the records (and trainers) it names.
    company_id TEXT NOT NULL,
    -- 'trainer' with actor_id, or 'operator' (the command line) without one.
    actor TEXT NOT NULL CHECK (actor IN ('trainer', 'operator')),
    actor_id TEXT,
    -- subject.action: client.created, result.viewed-as-report, …
    action TEXT NOT NULL,
    subject_id TEXT,
    client_id TEXT,
    -- 16 random bytes, so a digest cannot be matched to ids guessed later; NULL once erased.
    subject_salt BLOB,
    subject_digest BLOB NOT NULL,
    hash BLOB NOT NULL
);
CREATE INDEX audit_events_by_company ON audit_events (company_id, seq);
CREATE INDEX audit_events_by_client ON audit_events (client_id, seq);
