-- A delivery's message (a report PDF, hundreds of KiB) moves to a table of its own, and a delivery records when
-- its current attempt handed the message to the mail server.
--
-- SQLite writes a whole row on every UPDATE, its overflow pages too: with the message in the row, each change of
-- status (claimed, handed over, sent) wrote the message again, three times per email, and the outbox drained at
-- the speed of those writes. The message is written once now, read when an attempt is claimed, and deleted with
-- its delivery.
--
-- handed_over_at: when the current attempt's SMTP DATA began; NULL before that and once the attempt's outcome is
-- recorded. A server stopped while a delivery is `sending` queues it again at its next start: with NULL the message
-- never reached the mail server, so sending it again duplicates nothing; with a time it may have arrived, and the
-- delivery says so (it is still sent again: delivery is at least once).
--
-- deliveries is rebuilt to lose its message column (Migrations/README.md); nothing else refers to it.
CREATE TABLE delivery_messages (
    delivery_id TEXT PRIMARY KEY NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    -- The message as sent: RFC 5322 with CRLF line ends.
    message BLOB NOT NULL
) WITHOUT ROWID;
INSERT INTO delivery_messages (delivery_id, message) SELECT id, message FROM deliveries;

CREATE TABLE new_deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    -- Deleting a client deletes their reports' emails too: they hold the client's health data.
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    trainer_id TEXT NOT NULL,
    -- JSON arrays of addresses.
    to_addresses TEXT NOT NULL,
    cc_addresses TEXT NOT NULL,
    subject TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    -- Set while queued: when the next attempt is due.
    next_attempt_at INTEGER,
    sent_at INTEGER,
    handed_over_at INTEGER
);
INSERT INTO new_deliveries (
    id, company_id, client_id, trainer_id, to_addresses, cc_addresses, subject, status, attempts, last_error,
    created_at, updated_at, next_attempt_at, sent_at
)
SELECT
    id, company_id, client_id, trainer_id, to_addresses, cc_addresses, subject, status, attempts, last_error,
    created_at, updated_at, next_attempt_at, sent_at
FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE new_deliveries RENAME TO deliveries;

-- The sender's question: what is due next?
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
-- A client's emails, newest first; a company's emails in the past day (the daily limit).
CREATE INDEX deliveries_by_client ON deliveries (client_id, created_at, id);
CREATE INDEX deliveries_by_company ON deliveries (company_id, created_at);
