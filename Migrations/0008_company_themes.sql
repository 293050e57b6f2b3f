-- A company's branding: a theme shipped in Themes/ picked by id, or the company's own theme document, and the
-- company's own logo. No row means the shipped default theme. `version` moves on every change, so drawn wheels
-- and reports cached under an older version are never served again.
CREATE TABLE company_themes (
    company_id TEXT PRIMARY KEY NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
    -- At most one of these: a shipped theme's id, or the company's own theme as a JSON document (neither: the
    -- default theme, with the company's own logo).
    shipped_id TEXT,
    document TEXT,
    -- A PNG; shown instead of the theme's own logo.
    logo BLOB,
    version INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CHECK (shipped_id IS NULL OR document IS NULL)
);
