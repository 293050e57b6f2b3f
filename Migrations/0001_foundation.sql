-- Companies, their trainers, and login sessions.
-- Ids are random UUIDs as lower-case text; times are milliseconds since 1970 (UTC).

CREATE TABLE companies (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE trainers (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'trainer')),
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Emails are stored lower-cased and are unique across the whole system: they are the login.
CREATE UNIQUE INDEX trainers_email ON trainers (email);
CREATE INDEX trainers_company_name ON trainers (company_id, name COLLATE NOCASE, id);

-- Only the SHA-256 of a bearer token is stored.
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY NOT NULL,
    trainer_id TEXT NOT NULL REFERENCES trainers (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX sessions_trainer ON sessions (trainer_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);
