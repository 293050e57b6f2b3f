-- Clients, their photos and search terms; screening questionnaires filled in for them, with amendment history.
-- Height and mass are SI (metres, kilograms). Birth dates are calendar days as 'YYYY-MM-DD'.

CREATE TABLE clients (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    given_name TEXT,
    family_name TEXT,
    email TEXT,
    phone TEXT,
    birth_date TEXT,
    sex TEXT CHECK (sex IN ('male', 'female')),
    height REAL,
    mass REAL,
    goal TEXT,
    notes TEXT,
    assigned_trainer_id TEXT REFERENCES trainers (id) ON DELETE SET NULL,
    vcard_uid TEXT,
    -- Family then given name, case- and accent-folded: the list order.
    sort_name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE INDEX clients_company_sort ON clients (company_id, sort_name, id);
CREATE INDEX clients_company_uid ON clients (company_id, vcard_uid);
CREATE INDEX clients_company_email ON clients (company_id, email);
CREATE INDEX clients_assigned_trainer ON clients (assigned_trainer_id);

-- One row per word a client can be found by (folded names, email, phone digits): a prefix search is an index
-- range scan, in plain SQL that PostgreSQL runs as well. Each row also carries the client's sort key and all of
-- their terms, so a search of several words scans the first word's range and checks the others in the same rows,
-- with no join until the page is known.
CREATE TABLE client_search_terms (
    company_id TEXT NOT NULL,
    term TEXT NOT NULL,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    sort_name TEXT NOT NULL,
    -- Every term of the client, each preceded by a space: ' olivia smith-walker client7@example.com 021555…'.
    all_terms TEXT NOT NULL,
    PRIMARY KEY (company_id, term, client_id)
) WITHOUT ROWID;

CREATE INDEX client_search_terms_client ON client_search_terms (client_id);

CREATE TABLE client_photos (
    client_id TEXT PRIMARY KEY NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    bytes BLOB NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE screenings (
    id TEXT PRIMARY KEY NOT NULL,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    questionnaire_id TEXT NOT NULL,
    questionnaire_version INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'completed', 'amended')),
    -- JSON objects: {fieldKey: answer} and [flag].
    answers TEXT NOT NULL,
    flags TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    -- Trainer ids are kept as history even after the trainer is deleted, so no foreign key.
    created_by TEXT,
    updated_at INTEGER NOT NULL,
    completed_at INTEGER,
    completed_by TEXT
);

CREATE INDEX screenings_client ON screenings (client_id, created_at);
CREATE INDEX screenings_client_completed ON screenings (client_id, completed_at);

CREATE TABLE screening_revisions (
    id INTEGER PRIMARY KEY,
    screening_id TEXT NOT NULL REFERENCES screenings (id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    old_value TEXT NOT NULL,
    new_value TEXT NOT NULL,
    changed_by TEXT,
    changed_at INTEGER NOT NULL
);

CREATE INDEX screening_revisions_screening ON screening_revisions (screening_id, id);
