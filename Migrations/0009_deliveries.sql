-- The email outbox: each emailed report with its complete MIME message (encrypted at rest with the rest of the
-- file), written in the transaction that accepts the request, then delivered by the background sender. A queued
-- row survives a restart; a row left `sending` by a crash is queued again at start-up.
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    -- Deleting a client deletes their reports' emails too: they hold the client's health data.
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    trainer_id TEXT NOT NULL,
    -- JSON arrays of addresses.
    to_addresses TEXT NOT NULL,
    cc_addresses TEXT NOT NULL,
    subject TEXT NOT NULL,
    -- The message as sent: RFC 5322 with CRLF line ends.
    message BLOB NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- Set while queued: when the next attempt is due.
    next_attempt_at INTEGER,
    sent_at INTEGER
);
-- The sender's question: what is due next?
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
-- A client's emails, newest first; a company's emails in the past day (the daily limit).
CREATE INDEX deliveries_by_client ON deliveries (client_id, created_at, id);
CREATE INDEX deliveries_by_company ON deliveries (company_id, created_at);
