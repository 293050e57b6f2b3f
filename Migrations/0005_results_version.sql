-- A counter per client that moves with every change to their results, kept by triggers in the same transaction as
-- the change, so no write path can forget it. The API keeps each client's wheel in memory and rebuilds it only when
-- this counter has moved. A separate table, because a column on `clients` would move the client list's version
-- (migration 0003) with every result.
CREATE TABLE client_results_versions (
    client_id TEXT PRIMARY KEY NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    version INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER results_version_on_insert AFTER INSERT ON results BEGIN
    INSERT OR IGNORE INTO client_results_versions (client_id, version) VALUES (NEW.client_id, 0);
    UPDATE client_results_versions SET version = version + 1 WHERE client_id = NEW.client_id;
END;

CREATE TRIGGER results_version_on_update AFTER UPDATE ON results BEGIN
    INSERT OR IGNORE INTO client_results_versions (client_id, version) VALUES (NEW.client_id, 0);
    UPDATE client_results_versions SET version = version + 1 WHERE client_id IN (OLD.client_id, NEW.client_id);
END;

CREATE TRIGGER results_version_on_delete AFTER DELETE ON results BEGIN
    UPDATE client_results_versions SET version = version + 1 WHERE client_id = OLD.client_id;
END;
