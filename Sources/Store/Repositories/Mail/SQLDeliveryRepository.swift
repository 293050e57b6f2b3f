import Foundation
import HealthwheelCore
import StoreContract

struct SQLDeliveryRepository: DeliveryRepository {
    let database: any SQLDatabase
    static let day: TimeInterval = 86_400

    static let columns =
        "id, company_id, client_id, trainer_id, to_addresses, cc_addresses, subject, status, attempts, last_error, created_at, updated_at, next_attempt_at, sent_at"

    /// `columns` of the table aliased `d`, for a join.
    static let qualifiedColumns = columns.split(separator: ",").map { "d." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    func enqueue(_ delivery: Delivery, message: [UInt8], dailyLimit limit: Int, keeping answer: IdempotencyRecord?, audit: AuditEvent) async throws {
        let to = try Self.json(delivery.to)
        let cc = try Self.json(delivery.cc)
        try await database.write { db in
            try await db.lockCompany(delivery.companyId)
            if let reached = try await Self.dailyLimitReached(delivery.companyId, limit: limit, at: delivery.createdAt, db) { throw reached }
            try await db.run(
                "INSERT INTO deliveries (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    delivery.id, delivery.companyId, delivery.clientId, delivery.trainerId, to, cc, delivery.subject, delivery.status.rawValue,
                    delivery.attempts, delivery.lastError, delivery.createdAt, delivery.updatedAt, delivery.nextAttemptAt, delivery.sentAt,
                ]
            )
            // Apart from the row, whose every change of status would otherwise write the message again.
            try await db.run(
                "INSERT INTO delivery_messages (delivery_id, message) VALUES (?, ?)",
                delivery.id,
                try db.sealed(bytes: message, Self.messageContext)
            )
            if let answer { try await SQLIdempotencyRepository.keep(answer, db) }
            try await AuditChain.append(audit, db)
        }
    }

    func dailyLimitReached(company: UUID, limit: Int, at now: Date) async throws -> DailyLimitReached? {
        try await database.read { db in try await Self.dailyLimitReached(company, limit: limit, at: now, db) }
    }

    /// The one rule: a rolling day, and a slot frees when the oldest email in it is a day old.
    private static func dailyLimitReached(_ company: UUID, limit: Int, at now: Date, _ db: any SQLConnection) async throws -> DailyLimitReached? {
        let sql = "SELECT count(*) AS n, min(created_at) AS oldest FROM deliveries WHERE company_id = ? AND created_at > ?"
        guard let row = try await db.query(sql, company, now.addingTimeInterval(-day)).first else { return nil }
        let count: Int = try row["n"]
        guard count >= limit else { return nil }
        let oldest: Date? = try row["oldest"]
        return DailyLimitReached(limit: limit, retryAt: (oldest ?? now).addingTimeInterval(day))
    }

    func find(_ id: UUID, in company: UUID) async throws -> Delivery? {
        try await database.read { db in
            try await db.query("SELECT \(Self.columns) FROM deliveries WHERE id = ? AND company_id = ?", id, company).first.map(Self.delivery)
        }
    }

    func list(client: UUID, in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<Delivery> {
        var conditions = ["client_id = ?", "company_id = ?"]
        var arguments: [any SQLConvertible] = [client, company]
        if let cursor, let milliseconds = Int64(cursor.sortKey) {
            conditions.append("(created_at < ? OR (created_at = ? AND id < ?))")
            arguments += [milliseconds, milliseconds, cursor.id]
        }
        arguments.append(limit + 1)
        let sql = "SELECT \(Self.columns) FROM deliveries WHERE \(conditions.joined(separator: " AND ")) ORDER BY created_at DESC, id DESC LIMIT ?"
        let deliveries = try await database.read { db in try await db.query(sql, arguments).map(Self.delivery) }
        return Page(fetched: deliveries, limit: limit) { Cursor(sortKey: millisecondsKey($0.createdAt), id: $0.id) }
    }

    /// A report's email holds the client's health data: sealed where the database is not encrypted.
    static let messageContext = "delivery_messages.message"

    func claimDue(at now: Date, limit: Int, lease: TimeInterval) async throws -> [(Delivery, [UInt8])] {
        try await database.write { db in
            // Due queued mail, and mail whose claimer's lease ran out (it stopped while sending).
            let sql = """
                SELECT \(Self.qualifiedColumns), d.handed_over_at, m.message
                FROM deliveries d JOIN delivery_messages m ON m.delivery_id = d.id
                WHERE (d.status = 'queued' AND d.next_attempt_at <= ?) OR (d.status = 'sending' AND d.lease_until <= ?)
                ORDER BY d.next_attempt_at, d.id LIMIT ?\(db.dialect.claimingRows(of: "d"))
                """
            return try await db.query(sql, now, now, limit).asyncMap { row in
                var delivery = try Self.delivery(row)
                let message = try db.unsealedBytes(row, "message", Self.messageContext) ?? []
                if try row["handed_over_at"] as Int64? != nil { delivery.lastError = Self.possiblyDeliveredNote }
                delivery.status = .sending
                delivery.attempts += 1
                delivery.updatedAt = now
                try await db.run(
                    """
                    UPDATE deliveries SET status = 'sending', attempts = ?, updated_at = ?, lease_until = ?, last_error = ?, handed_over_at = NULL
                    WHERE id = ?
                    """,
                    delivery.attempts,
                    now,
                    now.addingTimeInterval(lease),
                    delivery.lastError,
                    delivery.id
                )
                return (delivery, message)
            }
        }
    }

    func nextDue() async throws -> Date? {
        try await database.read { db in
            try await db.query(
                """
                SELECT min(due) AS due FROM (
                    SELECT min(next_attempt_at) AS due FROM deliveries WHERE status = 'queued'
                    UNION ALL SELECT min(lease_until) AS due FROM deliveries WHERE status = 'sending'
                ) AS dues
                """
            ).first?["due"]
        }
    }

    func finish(_ id: UUID, status: Delivery.Status, error: String?, nextAttemptAt: Date?, at now: Date) async throws {
        try await database.write { db in
            // Gone with its client meanwhile: nothing to record.
            guard let owner = try await db.query("SELECT company_id, client_id FROM deliveries WHERE id = ?", id).first else { return }
            _ = try await db.run(
                """
                UPDATE deliveries SET status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?, sent_at = ?, handed_over_at = NULL,
                    lease_until = NULL
                WHERE id = ?
                """,
                status.rawValue,
                error,
                nextAttemptAt,
                now,
                status == .sent ? now : nil,
                id
            )
            let action: AuditEvent.Action =
                switch status {
                case .sent: .sent
                case .failed: .failed
                case .queued, .sending: .changed
                }
            try await AuditChain.append(
                .about(try owner["client_id"], in: try owner["company_id"], action, .delivery, id: id, by: .server, at: now),
                db
            )
        }
    }

    func extendLease(_ id: UUID, attempt: Int, until: Date) async throws {
        try await database.write { db in
            _ = try await db.run("UPDATE deliveries SET lease_until = ? WHERE id = ? AND status = 'sending' AND attempts = ?", until, id, attempt)
        }
    }

    func markHandedOver(_ id: UUID, at now: Date) async throws {
        try await database.write { db in
            _ = try await db.run("UPDATE deliveries SET handed_over_at = ? WHERE id = ? AND status = 'sending'", now, id)
        }
    }

    func requeueInterrupted(at now: Date) async throws -> (requeued: Int, possiblyDelivered: Int) {
        // Other nodes may be sending what is `sending` now: their leases decide (`claimDue`), not this start.
        guard !database.isShared else { return (0, 0) }
        return try await database.write { db in
            let possiblyDelivered = try await db.run(
                """
                UPDATE deliveries SET status = 'queued', next_attempt_at = ?, updated_at = ?, last_error = ?, handed_over_at = NULL
                WHERE status = 'sending' AND handed_over_at IS NOT NULL
                """,
                now,
                now,
                Self.possiblyDeliveredNote
            )
            let requeued = try await db.run(
                "UPDATE deliveries SET status = 'queued', next_attempt_at = ?, updated_at = ? WHERE status = 'sending'",
                now,
                now
            )
            return (requeued + possiblyDelivered, possiblyDelivered)
        }
    }

    private static func delivery(_ row: Row) throws -> Delivery {
        let status: String = try row["status"]
        return Delivery(
            id: try row["id"],
            companyId: try row["company_id"],
            clientId: try row["client_id"],
            trainerId: try row["trainer_id"],
            to: try addresses(try row["to_addresses"]),
            cc: try addresses(try row["cc_addresses"]),
            subject: try row["subject"],
            status: Delivery.Status(rawValue: status) ?? .failed,
            attempts: try row["attempts"],
            lastError: try row["last_error"],
            createdAt: try row["created_at"],
            updatedAt: try row["updated_at"],
            nextAttemptAt: try row["next_attempt_at"],
            sentAt: try row["sent_at"]
        )
    }

    private static func json(_ addresses: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(addresses), as: UTF8.self)
    }

    private static func addresses(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}
