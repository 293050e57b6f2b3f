-- As SQLite's 0017: a claimed delivery is its claimer's until `lease_until`; past it, another node takes it.
ALTER TABLE deliveries ADD COLUMN lease_until BIGINT;
