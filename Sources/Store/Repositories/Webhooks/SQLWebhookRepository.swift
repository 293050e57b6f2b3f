import Cryptography
import Foundation
import HealthwheelCore
import StoreContract

struct SQLWebhookRepository: WebhookRepository {
    let database: any SQLDatabase

    static let endpointColumns = "id, company_id, url, events, enabled, disabled_reason, previous_secret_until, created_at, updated_at"
    static let deliveryColumns =
        "id, endpoint_id, company_id, event, payload, status, attempts, next_attempt_at, last_status, last_error, created_at, updated_at, delivered_at"
    /// A signing key lets whoever holds it forge deliveries: sealed where the database is not encrypted.
    static let secretContext = "webhook_endpoints.secret"

    func create(_ endpoint: WebhookEndpoint, secret: [UInt8], limit: Int, audit: AuditEvent) async throws -> Bool {
        try await database.write { db in
            try await db.lockCompany(endpoint.companyId)
            let count: Int =
                try await db.query("SELECT count(*) AS n FROM webhook_endpoints WHERE company_id = ?", endpoint.companyId).first?["n"] ?? 0
            guard count < limit else { return false }
            // From the trail's end as it is now: the endpoint hears what happens after it was registered.
            let head: Int64 = try await db.query("SELECT coalesce(max(seq), 0) AS head FROM audit_events").first?["head"] ?? 0
            try await db.run(
                """
                INSERT INTO webhook_endpoints (id, company_id, url, events, secret, previous_secret, previous_secret_until, enabled,
                    disabled_reason, from_seq, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?)
                """,
                [
                    endpoint.id, endpoint.companyId, endpoint.url, Self.eventsText(endpoint.events), try db.sealed(bytes: secret, Self.secretContext),
                    endpoint.enabled, endpoint.disabledReason, head, endpoint.createdAt, endpoint.updatedAt,
                ]
            )
            try await AuditChain.append(audit, db)
            return true
        }
    }

    func endpoints(in company: UUID) async throws -> [WebhookEndpoint] {
        try await database.read { db in
            try await db.query("SELECT \(Self.endpointColumns) FROM webhook_endpoints WHERE company_id = ? ORDER BY created_at, id", company)
                .map(Self.endpoint)
        }
    }

    func endpoint(_ id: UUID, in company: UUID) async throws -> WebhookEndpoint? {
        try await database.read { db in try await Self.endpoint(id, in: company, db) }
    }

    private static func endpoint(_ id: UUID, in company: UUID, _ db: any SQLConnection) async throws -> WebhookEndpoint? {
        try await db.query("SELECT \(endpointColumns) FROM webhook_endpoints WHERE id = ? AND company_id = ?", id, company).first.map(endpoint)
    }

    func update(
        _ id: UUID,
        in company: UUID,
        audit: AuditEvent,
        _ change: @Sendable (inout WebhookEndpoint) throws -> Void
    ) async throws -> WebhookEndpoint? {
        try await database.write { db in
            guard var endpoint = try await Self.endpoint(id, in: company, db) else { return nil }
            let wasOn = endpoint.enabled
            try change(&endpoint)
            if endpoint.enabled && !wasOn {
                // Turned on again, it hears what happens from now on, as a new one: nothing of its time off is sent
                // (whether the outbox had read those lines already or not).
                try await db.run("UPDATE webhook_endpoints SET from_seq = (SELECT coalesce(max(seq), 0) FROM audit_events) WHERE id = ?", id)
            }
            try await db.run(
                "UPDATE webhook_endpoints SET url = ?, events = ?, enabled = ?, disabled_reason = ?, updated_at = ? WHERE id = ?",
                endpoint.url,
                Self.eventsText(endpoint.events),
                endpoint.enabled,
                endpoint.disabledReason,
                endpoint.updatedAt,
                id
            )
            try await AuditChain.append(audit, db)
            return endpoint
        }
    }

    func delete(_ id: UUID, in company: UUID, audit: AuditEvent) async throws -> Bool {
        try await database.write { db in
            guard try await db.run("DELETE FROM webhook_endpoints WHERE id = ? AND company_id = ?", id, company) > 0 else { return false }
            try await AuditChain.append(audit, db)
            return true
        }
    }

    func rotateSecret(_ id: UUID, in company: UUID, to secret: [UInt8], previousUntil: Date, audit: AuditEvent) async throws -> WebhookEndpoint? {
        try await database.write { db in
            let changed = try await db.run(
                """
                UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ?
                WHERE id = ? AND company_id = ?
                """,
                previousUntil,
                try db.sealed(bytes: secret, Self.secretContext),
                audit.at,
                id,
                company
            )
            guard changed > 0 else { return nil }
            try await AuditChain.append(audit, db)
            return try await Self.endpoint(id, in: company, db)
        }
    }

    /// Which lines an endpoint (`e`) hears: an event's action, and the event among its subscriptions (`events` is
    /// space-separated). Kept in SQL, so that the lines no endpoint hears (most of a busy trail) are never read
    /// into rows: every recorded result is a line, and an endpoint for other events must cost a POST nothing.
    static let heard = WebhookEvent.kindsByAuditAction.map { "(a.action = '\($0.action)' AND ' ' || e.events || ' ' LIKE '% \($0.kind.rawValue) %')" }
        .joined(separator: " OR ")

    /// The id of the delivery of line `seq` to `endpoint` (its message id): a hash of the two, the same whenever
    /// the fan-out is made again, and a UUID version 8 (RFC 9562: made by the application).
    static func deliveryId(endpoint: UUID, seq: Int64) -> UUID {
        var bytes = SHA256.digest(Array("healthwheel webhook delivery \(endpoint.lowercaseHyphenated) \(seq)".utf8))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    func fanOut(at now: Date, lines: Int) async throws -> (queued: Int, more: Bool) {
        // Most looks find nothing to do: a read says so without a write (a durable commit each second on each node,
        // and a log that an erasure has just emptied written to again). With no endpoint on, the cursor stays where
        // it is: a new endpoint hears only lines after its registration, which the next look reads from there.
        let due = try await database.read { db in
            try await db.query(
                """
                SELECT (SELECT seq FROM webhook_cursor WHERE single = 1) AS cursor, (SELECT coalesce(max(seq), 0) FROM audit_events) AS head,
                    EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled = 1) AS listening
                """
            ).first.map { row -> Bool in
                let (cursor, head): (Int64?, Int64?) = (try row["cursor"], try row["head"])
                let listening: Bool = try row["listening"]
                return listening && (head ?? 0) > (cursor ?? 0)
            } ?? false
        }
        guard due else { return (0, false) }
        // Unsynced, as claims and outcomes are: a fan-out a power cut undoes is made again from the same lines
        // with the same delivery ids (`deliveryId`), so a receiver that had one sees the same message id again.
        return try await database.writeUnsynced { db in
            // The cursor's row lock keeps a second node out until this one commits.
            _ = try await db.run("UPDATE webhook_cursor SET seq = seq WHERE single = 1")
            let cursor: Int64 = try await db.query("SELECT seq FROM webhook_cursor WHERE single = 1").first?["seq"] ?? 0
            // Lines are committed in their order (SQLite: one writer; PostgreSQL: the audit head's row lock is held to
            // commit), so every line up to the newest one visible now is there to read.
            let head: Int64 = try await db.query("SELECT coalesce(max(seq), 0) AS head FROM audit_events").first?["head"] ?? 0
            let end = min(head, cursor + Int64(lines))
            guard end > cursor else { return (0, false) }
            let rows = try await db.query(
                """
                SELECT a.seq, a.at, a.company_id, a.actor, a.actor_id, a.action, a.subject_id, a.client_id, a.subject_salt IS NULL AS erased,
                    e.id AS endpoint_id
                FROM audit_events a JOIN webhook_endpoints e ON e.company_id = a.company_id AND e.enabled = 1 AND e.from_seq < a.seq
                WHERE a.seq > ? AND a.seq <= ? AND (\(Self.heard))
                ORDER BY a.seq
                """,
                cursor,
                end
            )
            var queued = 0
            for row in rows {
                // `heard` kept only the lines this endpoint subscribed to; a blanked or odd line is still no event.
                guard let event = WebhookEvent(try SQLAuditRepository.event(row).event) else { continue }
                let seq: Int64 = try row["seq"]
                try await db.run(
                    """
                    INSERT INTO webhook_deliveries (id, endpoint_id, company_id, client_id, event, seq, payload, status, attempts,
                        next_attempt_at, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)
                    """,
                    [
                        Self.deliveryId(endpoint: try row["endpoint_id"], seq: seq), try row["endpoint_id"] as UUID, event.companyId, event.clientId,
                        event.kind.rawValue, seq, event.payload, now, now,
                        now,
                    ]
                )
                queued += 1
            }
            _ = try await db.run("UPDATE webhook_cursor SET seq = ? WHERE single = 1", end)
            return (queued, end < head)
        }
    }

    func claimDue(at now: Date, limit: Int, perCompany: Int, lease: TimeInterval) async throws -> [ClaimedWebhookDelivery] {
        // Unsynced: a claim a power cut undoes leaves the delivery queued, to be sent (again) after the restart.
        try await database.writeUnsynced { db in
            var inFlight: [UUID: Int] = [:]
            for row in try await db.query(
                "SELECT company_id, count(*) AS n FROM webhook_deliveries WHERE status = 'sending' AND lease_until > ? GROUP BY company_id",
                now
            ) {
                inFlight[try row["company_id"]] = try row["n"]
            }
            // More candidates than asked for, so that one company's backlog cannot fill every lane: each company
            // gets at most `perCompany` in flight, the earliest due first. Two reads, each down the index on
            // (status, next_attempt_at), so a claim costs the same whatever the log holds: leases run out (few rows
            // are ever `sending`), then deliveries due.
            let select = """
                SELECT \(Self.qualified(Self.deliveryColumns, "d")), e.url, e.secret, e.previous_secret, e.previous_secret_until
                FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                """
            let expired = try await db.query(
                "\(select) WHERE d.status = 'sending' AND d.lease_until <= ? AND e.enabled = 1 ORDER BY d.next_attempt_at LIMIT ?"
                    + db.dialect.claimingRows(of: "d"),
                now,
                limit * 8
            )
            let due = try await db.query(
                "\(select) WHERE d.status = 'queued' AND d.next_attempt_at <= ? AND e.enabled = 1 ORDER BY d.next_attempt_at LIMIT ?"
                    + db.dialect.claimingRows(of: "d"),
                now,
                limit * 8
            )
            let candidates = expired + due
            var claimed: [ClaimedWebhookDelivery] = []
            for row in candidates where claimed.count < limit {
                var delivery = try Self.delivery(row)
                guard inFlight[delivery.companyId, default: 0] < perCompany else { continue }
                inFlight[delivery.companyId, default: 0] += 1
                delivery.status = .sending
                delivery.attempts += 1
                delivery.updatedAt = now
                try await db.run(
                    "UPDATE webhook_deliveries SET status = 'sending', attempts = ?, updated_at = ?, lease_until = ? WHERE id = ?",
                    delivery.attempts,
                    now,
                    now.addingTimeInterval(lease),
                    delivery.id
                )
                var secrets = [try db.unsealedBytes(row, "secret", Self.secretContext) ?? []]
                if let until: Date = try row["previous_secret_until"], until > now,
                    let previous = try db.unsealedBytes(row, "previous_secret", Self.secretContext)
                {
                    secrets.append(previous)
                }
                claimed.append(ClaimedWebhookDelivery(delivery: delivery, url: try row["url"], secrets: secrets))
            }
            return claimed
        }
    }

    func nextDue() async throws -> Date? {
        try await database.read { db in
            try await db.query(
                """
                SELECT min(due) AS due FROM (
                    SELECT min(next_attempt_at) AS due FROM webhook_deliveries WHERE status = 'queued'
                    UNION ALL SELECT min(lease_until) AS due FROM webhook_deliveries WHERE status = 'sending'
                ) AS dues
                """
            ).first?["due"]
        }
    }

    func finish(_ outcome: WebhookAttemptOutcome, at now: Date) async throws {
        // Unsynced: an outcome a power cut undoes leaves the delivery claimed, sent again once its lease runs out.
        try await database.writeUnsynced { db in
            _ = try await db.run(
                """
                UPDATE webhook_deliveries SET status = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?,
                    delivered_at = ?, lease_until = NULL
                WHERE id = ?
                """,
                outcome.status.rawValue,
                outcome.httpStatus,
                outcome.error,
                outcome.nextAttemptAt,
                now,
                outcome.status == .delivered ? now : nil,
                outcome.id
            )
            if let reason = outcome.disablingEndpoint {
                _ = try await db.run(
                    """
                    UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ?, updated_at = ?
                    WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = ?)
                    """,
                    false,
                    reason,
                    now,
                    outcome.id
                )
            }
        }
    }

    func extendLease(_ id: UUID, attempt: Int, until: Date) async throws {
        try await database.write { db in
            _ = try await db.run(
                "UPDATE webhook_deliveries SET lease_until = ? WHERE id = ? AND status = 'sending' AND attempts = ?",
                until,
                id,
                attempt
            )
        }
    }

    func deliveries(endpoint: UUID, in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<WebhookDelivery> {
        var conditions = ["endpoint_id = ?", "company_id = ?"]
        var arguments: [any SQLConvertible] = [endpoint, company]
        if let cursor, let milliseconds = Int64(cursor.sortKey) {
            conditions.append("(created_at < ? OR (created_at = ? AND id < ?))")
            arguments += [milliseconds, milliseconds, cursor.id]
        }
        arguments.append(limit + 1)
        let sql = """
            SELECT \(Self.deliveryColumns) FROM webhook_deliveries WHERE \(conditions.joined(separator: " AND "))
            ORDER BY created_at DESC, id DESC LIMIT ?
            """
        let deliveries = try await database.read { db in try await db.query(sql, arguments).map(Self.delivery) }
        return Page(fetched: deliveries, limit: limit) { Cursor(sortKey: millisecondsKey($0.createdAt), id: $0.id) }
    }

    func replay(_ id: UUID, endpoint: UUID, in company: UUID, at now: Date) async throws -> WebhookReplay {
        try await database.write { db in
            let changed = try await db.run(
                """
                UPDATE webhook_deliveries SET status = 'queued', attempts = 0, next_attempt_at = ?, updated_at = ?, lease_until = NULL,
                    delivered_at = NULL
                WHERE id = ? AND endpoint_id = ? AND company_id = ? AND status <> 'sending'
                """,
                now,
                now,
                id,
                endpoint,
                company
            )
            let row = try await db.query(
                "SELECT \(Self.deliveryColumns) FROM webhook_deliveries WHERE id = ? AND endpoint_id = ? AND company_id = ?",
                id,
                endpoint,
                company
            ).first
            guard let row else { return .notFound }
            return changed > 0 ? .queued(try Self.delivery(row)) : .sending
        }
    }

    /// Deletes the deliveries about an erased client, in the erasure's transaction: they name the client by id.
    static func erase(client: UUID, _ db: any SQLConnection) async throws {
        _ = try await db.run("DELETE FROM webhook_deliveries WHERE client_id = ?", client)
    }

    private static func qualified(_ columns: String, _ table: String) -> String {
        columns.split(separator: ",").map { "\(table)." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
    }

    private static func eventsText(_ events: [WebhookEvent.Kind]) -> String {
        events.map(\.rawValue).joined(separator: " ")
    }

    private static func events(_ text: String) -> [WebhookEvent.Kind] {
        text.split(separator: " ").compactMap { WebhookEvent.Kind(rawValue: String($0)) }
    }

    private static func endpoint(_ row: Row) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: try row["id"],
            companyId: try row["company_id"],
            url: try row["url"],
            events: events(try row["events"]),
            enabled: try row["enabled"],
            disabledReason: try row["disabled_reason"],
            previousSecretUntil: try row["previous_secret_until"],
            createdAt: try row["created_at"],
            updatedAt: try row["updated_at"]
        )
    }

    private static func delivery(_ row: Row) throws -> WebhookDelivery {
        let event: String = try row["event"]
        let status: String = try row["status"]
        guard let kind = WebhookEvent.Kind(rawValue: event), let state = WebhookDelivery.Status(rawValue: status) else {
            throw StoreError.corrupt("webhook_deliveries \(event) \(status)")
        }
        return WebhookDelivery(
            id: try row["id"],
            endpointId: try row["endpoint_id"],
            companyId: try row["company_id"],
            event: kind,
            payload: try row["payload"],
            status: state,
            attempts: try row["attempts"],
            nextAttemptAt: try row["next_attempt_at"],
            lastStatus: try row["last_status"],
            lastError: try row["last_error"],
            createdAt: try row["created_at"],
            updatedAt: try row["updated_at"],
            deliveredAt: try row["delivered_at"]
        )
    }
}
