-- The server itself becomes an actor of the audit trail: the email outbox writes a line when an emailed report
-- is sent, fails for good, or fails an attempt and waits for the next (delivery.sent, delivery.failed,
-- delivery.changed), so the changes feed and webhooks can follow deliveries through the trail.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_check CHECK (actor IN ('trainer', 'operator', 'server'));
