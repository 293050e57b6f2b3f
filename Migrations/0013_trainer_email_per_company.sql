-- A trainer's email is unique within a company, no longer across companies: the same person may train in two gyms,
-- and a company must not learn, by being refused an address, that another company has a trainer with it.
-- Login looks accounts up by email alone (then by password, then by company), hence the plain index beside it.
DROP INDEX trainers_email;
CREATE UNIQUE INDEX trainers_company_email ON trainers (company_id, email);
CREATE INDEX trainers_email ON trainers (email);
