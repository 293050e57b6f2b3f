-- A counter per company that moves whenever anything shown in its client list changes: the client rows, their
-- photos, and the screening facts behind screeningStatus, flags and rescreenDue. The server keeps each company's
-- list in memory and rebuilds it when the counter has moved. Triggers bump it, so no write path can forget.
ALTER TABLE companies ADD COLUMN clients_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER clients_version_on_client_insert AFTER INSERT ON clients BEGIN
    UPDATE companies SET clients_version = clients_version + 1 WHERE id = NEW.company_id;
END;

CREATE TRIGGER clients_version_on_client_update AFTER UPDATE ON clients BEGIN
    UPDATE companies SET clients_version = clients_version + 1 WHERE id IN (OLD.company_id, NEW.company_id);
END;

CREATE TRIGGER clients_version_on_client_delete AFTER DELETE ON clients BEGIN
    UPDATE companies SET clients_version = clients_version + 1 WHERE id = OLD.company_id;
END;

CREATE TRIGGER clients_version_on_photo_insert AFTER INSERT ON client_photos BEGIN
    UPDATE companies SET clients_version = clients_version + 1
    WHERE id = (SELECT company_id FROM clients WHERE id = NEW.client_id);
END;

CREATE TRIGGER clients_version_on_photo_delete AFTER DELETE ON client_photos BEGIN
    UPDATE companies SET clients_version = clients_version + 1
    WHERE id = (SELECT company_id FROM clients WHERE id = OLD.client_id);
END;

CREATE TRIGGER clients_version_on_screening_insert AFTER INSERT ON screenings BEGIN
    UPDATE companies SET clients_version = clients_version + 1
    WHERE id = (SELECT company_id FROM clients WHERE id = NEW.client_id);
END;

CREATE TRIGGER clients_version_on_screening_update AFTER UPDATE OF status, completed_at, flags ON screenings BEGIN
    UPDATE companies SET clients_version = clients_version + 1
    WHERE id = (SELECT company_id FROM clients WHERE id = NEW.client_id);
END;

CREATE TRIGGER clients_version_on_screening_delete AFTER DELETE ON screenings BEGIN
    UPDATE companies SET clients_version = clients_version + 1
    WHERE id = (SELECT company_id FROM clients WHERE id = OLD.client_id);
END;
