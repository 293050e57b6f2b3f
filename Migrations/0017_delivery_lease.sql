-- How long a claimed delivery (`sending`) stays its claimer's: until `lease_until` (ms since 1970), set when it is
-- claimed. Past it, whoever claims due mail takes the delivery again: on a shared database another node, when the
-- one sending it died (an attempt takes at most the SMTP timeouts, well inside the lease).
ALTER TABLE deliveries ADD COLUMN lease_until INTEGER;
