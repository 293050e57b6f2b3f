-- Webhooks: the HTTPS endpoints a company's admins register for events, and the outbox of deliveries to them.
--
-- Deliveries are made from the audit trail, not in the changes' own transactions (a result's POST writes
-- nothing more): the outbox reads the lines after `webhook_cursor.seq` whose action is an event, writes a
-- delivery per subscribed endpoint, and moves the cursor, all in one transaction. An endpoint hears only lines
-- after `from_seq`, the trail's end when it was registered.
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    -- The subscribed events, space-separated: result.recorded screening.completed …
    events TEXT NOT NULL,
    -- The signing key (24 bytes; the admin saw it once as whsec_…), and during a rotation the previous one, which
    -- also signs until previous_secret_until (ms since 1970).
    secret BYTEA NOT NULL,
    previous_secret BYTEA,
    previous_secret_until BIGINT,
    enabled BIGINT NOT NULL CHECK (enabled IN (0, 1)),
    -- Why the server turned it off (the receiver answered 410 Gone); NULL when an admin did, or while it is on.
    disabled_reason TEXT,
    from_seq BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_by_company ON webhook_endpoints (company_id, created_at);

CREATE TABLE webhook_deliveries (
    -- The message id receivers see as webhook-id (msg_ and this id without hyphens); a replay keeps it.
    id TEXT PRIMARY KEY NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    company_id TEXT NOT NULL,
    -- The client the event is about (erasing them deletes their deliveries); NULL for a client's own erasure.
    client_id TEXT,
    event TEXT NOT NULL,
    -- The audit line it was made from: one delivery per line and endpoint.
    seq BIGINT NOT NULL,
    payload BYTEA NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'delivered', 'failed')),
    attempts BIGINT NOT NULL,
    next_attempt_at BIGINT,
    lease_until BIGINT,
    -- The last attempt's HTTP status (NULL: no answer) and what went wrong.
    last_status BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    delivered_at BIGINT,
    UNIQUE (endpoint_id, seq)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_by_client ON webhook_deliveries (client_id);

-- How far the outbox has read the audit trail (one row).
CREATE TABLE webhook_cursor (
    single BIGINT PRIMARY KEY DEFAULT 1 CHECK (single = 1),
    seq BIGINT NOT NULL
);
INSERT INTO webhook_cursor (single, seq) SELECT 1, coalesce(max(seq), 0) FROM audit_events;
