-- A company's logo as reports draw it: decoded once when uploaded, scaled down to fit 512 × 512 pixels and written
-- again as a PNG, so that no report decodes the original. The original (`logo`) is still what GET /v1/theme/logo
-- serves. NULL beside a logo uploaded before this column existed: the server makes the copy on first use.
ALTER TABLE company_themes ADD COLUMN report_logo BLOB;
