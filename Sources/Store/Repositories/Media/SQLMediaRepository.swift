import Foundation
import HealthwheelCore
import StoreContract

struct SQLMediaRepository: MediaRepository {
    let database: any SQLDatabase

    static let columns =
        "id, company_id, client_id, result_id, content_type, bytes, sha256, width, height, duration_seconds, caption, preview_bytes, created_by, created_at, updated_at, small_preview_bytes"

    func insert(_ file: MediaFile, key: MediaKey, quota: Int, audit: AuditEvent) async throws {
        try await database.write { db in
            try await db.lockCompany(file.companyId)
            let used = try await Self.usedBytes(file.companyId, db)
            guard used + file.bytes <= quota else { throw MediaQuotaReached(quota: quota, used: used) }
            try await db.run(
                "INSERT INTO media (\(Self.columns), file_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    file.id, file.companyId, file.clientId, file.resultId, file.format.contentType, file.bytes, file.sha256, file.width,
                    file.height, file.durationSeconds, file.caption, file.previewBytes, file.createdBy, file.createdAt, file.updatedAt,
                    file.smallPreviewBytes,
                    try db.sealed(bytes: key.bytes, Self.keyContext),
                ]
            )
            try await db.run("DELETE FROM media_reservations WHERE id = ?", file.id)
            try await AuditChain.append(audit, db)
        }
    }

    /// The key that opens a medium's bytes: sealed where the database is not encrypted, or a dump would hand it over.
    static let keyContext = "media.file_key"

    func find(_ id: UUID, in company: UUID) async throws -> (file: MediaFile, key: MediaKey)? {
        try await database.read { db in
            guard let row = try await db.query("SELECT \(Self.columns), file_key FROM media WHERE id = ? AND company_id = ?", id, company).first,
                let key = MediaKey(bytes: try db.unsealedBytes(row, "file_key", Self.keyContext) ?? [])
            else { return nil }
            return (try Self.file(row), key)
        }
    }

    func list(result: UUID, in company: UUID) async throws -> [MediaFile] {
        try await database.read { db in
            try await db.query(
                "SELECT \(Self.columns) FROM media WHERE result_id = ? AND company_id = ? ORDER BY created_at, rowid",
                result,
                company
            ).map(Self.file)
        }
    }

    func list(results: [UUID], in company: UUID) async throws -> [UUID: [MediaFile]] {
        guard !results.isEmpty else { return [:] }
        var byResult: [UUID: [MediaFile]] = [:]
        // SQLite 3.15 binds at most 999 parameters: ask in slices.
        for start in stride(from: 0, to: results.count, by: 500) {
            let slice = Array(results[start..<min(start + 500, results.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
            let files = try await database.read { db in
                try await db.query(
                    "SELECT \(Self.columns) FROM media WHERE company_id = ? AND result_id IN (\(marks)) ORDER BY created_at, rowid",
                    [company] + slice
                ).map(Self.file)
            }
            for file in files { byResult[file.resultId, default: []].append(file) }
        }
        return byResult
    }

    func setCaption(_ caption: String?, of id: UUID, in company: UUID, at now: Date, audit: (MediaFile) -> AuditEvent) async throws -> MediaFile? {
        try await database.write { db in
            guard try await db.run("UPDATE media SET caption = ?, updated_at = ? WHERE id = ? AND company_id = ?", caption, now, id, company) > 0,
                let file = try await db.query("SELECT \(Self.columns) FROM media WHERE id = ?", id).first.map(Self.file)
            else { return nil }
            try await AuditChain.append(audit(file), db)
            return file
        }
    }

    func delete(_ id: UUID, in company: UUID, audit: (MediaFile) -> AuditEvent) async throws -> MediaFile? {
        try await database.write { db in
            // The delete's count, not the read: a delete committed since by another node leaves nothing to audit.
            guard
                let file = try await db.query("SELECT \(Self.columns) FROM media WHERE id = ? AND company_id = ?", id, company).first.map(Self.file),
                try await db.run("DELETE FROM media WHERE id = ?", id) == 1
            else { return nil }
            try await AuditChain.append(audit(file), db)
            return file
        }
    }

    func usedBytes(by company: UUID) async throws -> Int {
        try await database.read { db in try await Self.usedBytes(company, db) }
    }

    private static func usedBytes(_ company: UUID, _ db: any SQLConnection) async throws -> Int {
        let total: Int64 = try await db.scalar("SELECT coalesce(sum(bytes), 0) FROM media WHERE company_id = ?", company)
        return Int(total)
    }

    func removed() async throws -> [UUID] {
        try await database.read { db in try await db.query("SELECT id FROM media_removed").map { try $0["id"] } }
    }

    func forgetRemoved(_ ids: [UUID]) async throws {
        guard !ids.isEmpty else { return }
        try await database.write { db in
            for id in ids { try await db.run("DELETE FROM media_removed WHERE id = ?", id) }
        }
    }

    func allIDs() async throws -> Set<UUID> {
        Set(
            try await database.read { db in
                try await db.query("SELECT id FROM media UNION ALL SELECT id FROM media_reservations").map { try $0["id"] as UUID }
            }
        )
    }

    func reserve(_ id: UUID, in company: UUID, at now: Date, abandonedBefore: Date) async throws {
        do {
            try await database.write { db in
                try await db.run("DELETE FROM media_reservations WHERE id = ? AND reserved_at < ?", id, abandonedBefore)
                let holders: Int64 = try await db.scalar(
                    """
                    SELECT (SELECT count(*) FROM media WHERE id = ?) + (SELECT count(*) FROM media_removed WHERE id = ?)
                        + (SELECT count(*) FROM media_reservations WHERE id = ?)
                    """,
                    id,
                    id,
                    id
                )
                guard holders == 0 else { throw RecordIdTaken() }
                try await db.run("INSERT INTO media_reservations (id, company_id, reserved_at) VALUES (?, ?, ?)", id, company, now)
            }
        } catch let error as any UniqueViolationReporting where error.isUniqueViolation {
            // Another node reserved it between the count and the insert.
            throw RecordIdTaken()
        }
    }

    func release(_ id: UUID) async throws {
        try await database.write { db in _ = try await db.run("DELETE FROM media_reservations WHERE id = ?", id) }
    }

    func releaseReservations(before date: Date) async throws {
        try await database.write { db in _ = try await db.run("DELETE FROM media_reservations WHERE reserved_at < ?", date) }
    }

    private static func file(_ row: Row) throws -> MediaFile {
        let contentType: String = try row["content_type"]
        guard let format = MediaFormat(contentType: contentType) else {
            throw StoreError.corrupt("media has an unknown content type \(contentType)")
        }
        return MediaFile(
            id: try row["id"],
            companyId: try row["company_id"],
            clientId: try row["client_id"],
            resultId: try row["result_id"],
            format: format,
            bytes: try row["bytes"],
            sha256: try row["sha256"],
            width: try row["width"],
            height: try row["height"],
            durationSeconds: try row["duration_seconds"],
            caption: try row["caption"],
            previewBytes: try row["preview_bytes"],
            smallPreviewBytes: try row["small_preview_bytes"],
            createdBy: try row["created_by"],
            createdAt: try row["created_at"],
            updatedAt: try row["updated_at"]
        )
    }
}
