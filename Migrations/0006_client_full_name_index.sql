-- A vCard import matches a card without a known UID or email by the client's full name. An index on exactly the
-- expression the match query uses keeps that an index seek however many clients the company holds (a full scan
-- per card made importing into a large roster slow down with every client it already had).
CREATE INDEX clients_company_full_name
    ON clients (company_id, trim(coalesce(given_name, '') || ' ' || coalesce(family_name, '')));
