-- Exercise packs, assessment results with their history, and idempotent retries of result posts.

-- Per-company settings the scoring features need.
ALTER TABLE companies ADD COLUMN correction_window_seconds INTEGER NOT NULL DEFAULT 60;
ALTER TABLE companies ADD COLUMN wheel_flag_below REAL NOT NULL DEFAULT 4;

-- Every version of every pack ever imported. `owner` is '*' for packs every company sees (shipped with the
-- server or imported by the operator), else the id of the company that imported it. Old versions are never
-- deleted: stored scores name the version whose script made them.
CREATE TABLE exercise_packs (
    owner TEXT NOT NULL,
    id TEXT NOT NULL,
    version INTEGER NOT NULL,
    definition TEXT NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (owner, id, version)
) WITHOUT ROWID;

CREATE TABLE results (
    id TEXT PRIMARY KEY NOT NULL,
    client_id TEXT NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    company_id TEXT NOT NULL,
    exercise_owner TEXT NOT NULL,
    exercise_id TEXT NOT NULL,
    category_id TEXT NOT NULL,
    pack_version INTEGER NOT NULL,
    trainer_id TEXT NOT NULL,
    -- {"key": value in stored units}
    values_json TEXT NOT NULL,
    observations TEXT,
    -- The client as the script saw them.
    subject_sex TEXT,
    subject_age INTEGER,
    subject_height REAL,
    subject_mass REAL,
    score REAL,
    score_error TEXT,
    recorded_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    revision INTEGER NOT NULL
);

-- The wheel reads the newest (scored) result per exercise with one index seek each, however many results exist.
CREATE INDEX results_by_exercise ON results (client_id, exercise_id, recorded_at, id);
CREATE INDEX results_scored_by_exercise ON results (client_id, exercise_id, recorded_at, id) WHERE score IS NOT NULL;
CREATE INDEX results_by_client ON results (client_id, recorded_at, id);

-- Every earlier state of a result: kept on each edit, quick correction and rescore.
CREATE TABLE result_revisions (
    result_id TEXT NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    pack_version INTEGER NOT NULL,
    values_json TEXT NOT NULL,
    observations TEXT,
    subject_sex TEXT,
    subject_age INTEGER,
    subject_height REAL,
    subject_mass REAL,
    score REAL,
    score_error TEXT,
    recorded_at INTEGER NOT NULL,
    -- When and by whom this state was replaced, and why: edit, correction or rescore.
    replaced_at INTEGER NOT NULL,
    replaced_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (result_id, revision)
) WITHOUT ROWID;

-- A POST with an Idempotency-Key answers a retry with the first response. `fingerprint` is a digest of the request,
-- so the same key with a different request is refused rather than answered with an unrelated response.
CREATE TABLE idempotent_responses (
    trainer_id TEXT NOT NULL REFERENCES trainers (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (trainer_id, key)
) WITHOUT ROWID;
