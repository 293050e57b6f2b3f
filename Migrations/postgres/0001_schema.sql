-- The whole schema on PostgreSQL, as the SQLite migrations 0001–0015 leave it on the embedded file, with the same
-- tables, columns and meanings (see those files for what each column holds), so that the repositories run the
-- same statements on both. Where the two differ:
--
-- * Types: ids and texts TEXT, integers (dates as milliseconds since 1970) BIGINT, measurements DOUBLE PRECISION,
--   bytes BYTEA. Booleans stay integers 0/1, as SQLite has no other kind.
-- * Health data is sealed by the application (AES-256-GCM under HEALTHWHEEL_DATA_KEY, see ColumnSealer), so its
--   columns are BYTEA here: screening answers and their revisions, result values and observations (and their
--   revisions), the client's notes, the client's photo, the answers kept for retried requests, the emails kept
--   in the outbox, and the media files' keys. Names, emails and phone numbers stay readable: the client list
--   searches and sorts them.
-- * Sorting and prefix ranges compare bytes, as SQLite does: COLLATE "C" on sort names and search terms.
-- * SQLite's NOCASE collation and instr() exist here too (below), so statements that use them read the same.
-- * Triggers are PL/pgSQL functions; SQLite's rowid, where a statement orders by it, is an identity column.

-- Case-insensitive comparison, as SQLite's NOCASE (which folds only A-Z; this folds every letter).
CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

-- SQLite's instr(haystack, needle): the 1-based position of needle, or 0.
CREATE FUNCTION instr(haystack TEXT, needle TEXT) RETURNS INTEGER
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT strpos(haystack, needle)';

-- A known text sealed under the data key by the first node: a node started with another key is refused.
CREATE TABLE data_key_check (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    sealed BYTEA NOT NULL
);

CREATE TABLE companies (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    clients_version BIGINT NOT NULL DEFAULT 0,
    correction_window_seconds BIGINT NOT NULL DEFAULT 60,
    wheel_flag_below DOUBLE PRECISION NOT NULL DEFAULT 4
);

CREATE TABLE trainers (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'trainer')),
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX trainers_company_name ON trainers (company_id, name COLLATE nocase, id);
CREATE UNIQUE INDEX trainers_company_email ON trainers (company_id, email);
CREATE INDEX trainers_email ON trainers (email);

CREATE TABLE sessions (
    token_hash BYTEA PRIMARY KEY NOT NULL,
    trainer_id TEXT NOT NULL REFERENCES trainers (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_trainer ON sessions (trainer_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE clients (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    given_name TEXT,
    family_name TEXT,
    email TEXT,
    phone TEXT,
    birth_date TEXT,
    sex TEXT CHECK (sex IN ('male', 'female')),
    height DOUBLE PRECISION,
    mass DOUBLE PRECISION,
    goal TEXT,
    notes BYTEA,
    assigned_trainer_id TEXT REFERENCES trainers (id) ON DELETE SET NULL,
    vcard_uid TEXT,
    sort_name TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX clients_company_sort ON clients (company_id, sort_name, id);
CREATE INDEX clients_company_uid ON clients (company_id, vcard_uid);
CREATE INDEX clients_company_email ON clients (company_id, email);
CREATE INDEX clients_assigned_trainer ON clients (assigned_trainer_id);
CREATE INDEX clients_company_full_name
    ON clients (company_id, trim(coalesce(given_name, '') || ' ' || coalesce(family_name, '')));

CREATE TABLE client_search_terms (
    company_id TEXT NOT NULL,
    term TEXT COLLATE "C" NOT NULL,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    sort_name TEXT COLLATE "C" NOT NULL,
    all_terms TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (company_id, term, client_id)
);
CREATE INDEX client_search_terms_client ON client_search_terms (client_id);

CREATE TABLE client_photos (
    client_id TEXT PRIMARY KEY NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE screenings (
    id TEXT PRIMARY KEY NOT NULL,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    questionnaire_id TEXT NOT NULL,
    questionnaire_version BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'completed', 'amended')),
    answers BYTEA NOT NULL,
    flags TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    created_by TEXT,
    updated_at BIGINT NOT NULL,
    completed_at BIGINT,
    completed_by TEXT
);
CREATE INDEX screenings_client ON screenings (client_id, created_at);
CREATE INDEX screenings_client_completed ON screenings (client_id, completed_at);

CREATE TABLE screening_revisions (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    screening_id TEXT NOT NULL REFERENCES screenings (id) ON DELETE CASCADE,
    field TEXT NOT NULL,
    old_value BYTEA NOT NULL,
    new_value BYTEA NOT NULL,
    changed_by TEXT,
    changed_at BIGINT NOT NULL
);
CREATE INDEX screening_revisions_screening ON screening_revisions (screening_id, id);

CREATE TABLE exercise_packs (
    owner TEXT NOT NULL,
    id TEXT NOT NULL,
    version BIGINT NOT NULL,
    definition TEXT NOT NULL,
    imported_at BIGINT NOT NULL,
    PRIMARY KEY (owner, id, version)
);

CREATE TABLE results (
    id TEXT PRIMARY KEY NOT NULL,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    company_id TEXT NOT NULL,
    exercise_owner TEXT NOT NULL,
    exercise_id TEXT NOT NULL,
    category_id TEXT NOT NULL,
    pack_version BIGINT NOT NULL,
    trainer_id TEXT NOT NULL,
    values_json BYTEA NOT NULL,
    observations BYTEA,
    subject_sex TEXT,
    subject_age BIGINT,
    subject_height DOUBLE PRECISION,
    subject_mass DOUBLE PRECISION,
    score DOUBLE PRECISION,
    score_error TEXT,
    recorded_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    revision BIGINT NOT NULL
);
CREATE INDEX results_by_exercise ON results (client_id, exercise_id, recorded_at, id);
CREATE INDEX results_scored_by_exercise ON results (client_id, exercise_id, recorded_at, id) WHERE score IS NOT NULL;
CREATE INDEX results_by_client ON results (client_id, recorded_at, id);

CREATE TABLE result_revisions (
    result_id TEXT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    revision BIGINT NOT NULL,
    pack_version BIGINT NOT NULL,
    values_json BYTEA NOT NULL,
    observations BYTEA,
    subject_sex TEXT,
    subject_age BIGINT,
    subject_height DOUBLE PRECISION,
    subject_mass DOUBLE PRECISION,
    score DOUBLE PRECISION,
    score_error TEXT,
    recorded_at BIGINT NOT NULL,
    replaced_at BIGINT NOT NULL,
    replaced_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (result_id, revision)
);

CREATE TABLE idempotent_responses (
    trainer_id TEXT NOT NULL REFERENCES trainers (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status BIGINT NOT NULL,
    body BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (trainer_id, key)
);

CREATE TABLE client_results_versions (
    client_id TEXT PRIMARY KEY NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    version BIGINT NOT NULL
);

CREATE TABLE company_themes (
    company_id TEXT PRIMARY KEY NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    shipped_id TEXT,
    document TEXT,
    logo BYTEA,
    version BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    report_logo BYTEA,
    CHECK (shipped_id IS NULL OR document IS NULL)
);

CREATE TABLE media (
    -- SQLite's rowid, which lists order by after created_at.
    rowid BIGINT GENERATED ALWAYS AS IDENTITY,
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    result_id TEXT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    content_type TEXT NOT NULL,
    bytes BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    width BIGINT,
    height BIGINT,
    duration_seconds DOUBLE PRECISION,
    caption TEXT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    file_key BYTEA NOT NULL,
    preview_bytes BIGINT,
    small_preview_bytes BIGINT
);
CREATE INDEX media_by_result ON media (result_id, created_at, id);
CREATE INDEX media_by_company ON media (company_id);

CREATE TABLE media_removed (
    id TEXT PRIMARY KEY NOT NULL
);

CREATE TABLE deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    company_id TEXT NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    trainer_id TEXT NOT NULL,
    to_addresses TEXT NOT NULL,
    cc_addresses TEXT NOT NULL,
    subject TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
    attempts BIGINT NOT NULL,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    next_attempt_at BIGINT,
    sent_at BIGINT,
    handed_over_at BIGINT
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX deliveries_by_client ON deliveries (client_id, created_at, id);
CREATE INDEX deliveries_by_company ON deliveries (company_id, created_at);

CREATE TABLE delivery_messages (
    delivery_id TEXT PRIMARY KEY NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    message BYTEA NOT NULL
);

CREATE TABLE audit_events (
    seq BIGINT PRIMARY KEY,
    at BIGINT NOT NULL,
    company_id TEXT NOT NULL,
    actor TEXT NOT NULL CHECK (actor IN ('trainer', 'operator')),
    actor_id TEXT,
    action TEXT NOT NULL,
    subject_id TEXT,
    client_id TEXT,
    subject_salt BYTEA,
    subject_digest BYTEA NOT NULL,
    hash BYTEA NOT NULL
);
CREATE INDEX audit_events_by_company ON audit_events (company_id, seq);
CREATE INDEX audit_events_by_client ON audit_events (client_id, seq);

-- The triggers SQLite's migrations keep: the company's client-list version moves with every change to what the
-- list shows; a client's results version with every update or deletion of their results (inserts move it in
-- code, see advanceResultsVersion); a deleted medium's id is remembered until its bytes are removed.
CREATE FUNCTION advance_clients_version_of_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE companies SET clients_version = clients_version + 1 WHERE id = OLD.company_id;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.company_id <> OLD.company_id THEN
        UPDATE companies SET clients_version = clients_version + 1 WHERE id = NEW.company_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER clients_version_on_client_change AFTER UPDATE OR DELETE ON clients
    FOR EACH ROW EXECUTE FUNCTION advance_clients_version_of_company();

CREATE FUNCTION advance_clients_version_of_client() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.client_id ELSE NEW.client_id END;
BEGIN
    UPDATE companies SET clients_version = clients_version + 1 WHERE id = (SELECT company_id FROM clients WHERE id = changed);
    RETURN NULL;
END $$;
CREATE TRIGGER clients_version_on_photo_change AFTER INSERT OR DELETE ON client_photos
    FOR EACH ROW EXECUTE FUNCTION advance_clients_version_of_client();
CREATE TRIGGER clients_version_on_screening_insert_or_delete AFTER INSERT OR DELETE ON screenings
    FOR EACH ROW EXECUTE FUNCTION advance_clients_version_of_client();
CREATE TRIGGER clients_version_on_screening_update AFTER UPDATE OF status, completed_at, flags ON screenings
    FOR EACH ROW EXECUTE FUNCTION advance_clients_version_of_client();

CREATE FUNCTION advance_results_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        INSERT INTO client_results_versions (client_id, version) VALUES (NEW.client_id, 0) ON CONFLICT DO NOTHING;
        UPDATE client_results_versions SET version = version + 1 WHERE client_id IN (OLD.client_id, NEW.client_id);
    ELSE
        UPDATE client_results_versions SET version = version + 1 WHERE client_id = OLD.client_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER results_version_on_change AFTER UPDATE OR DELETE ON results
    FOR EACH ROW EXECUTE FUNCTION advance_results_version();

CREATE FUNCTION remember_removed_media() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO media_removed (id) VALUES (OLD.id) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER media_removed_on_delete AFTER DELETE ON media
    FOR EACH ROW EXECUTE FUNCTION remember_removed_media();
