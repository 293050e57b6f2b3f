import Foundation
import StoreContract

struct SQLLoginFailureRepository: LoginFailureRepository {
    let database: any SQLDatabase

    func failures(of keys: [[UInt8]], since: Date) async throws -> [[UInt8]: [Date]] {
        guard !keys.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return try await database.read { db in
            var found: [[UInt8]: [Date]] = [:]
            try await db.forEachRow(
                "SELECT key_digest, failed_at FROM login_failures WHERE key_digest IN (\(placeholders)) AND failed_at > ? ORDER BY failed_at",
                keys.map { $0 as any SQLConvertible } + [since]
            ) { row in found[try row["key_digest"] as [UInt8], default: []].append(try row["failed_at"]) }
            return found
        }
    }

    func recordFailure(of keys: [[UInt8]], at now: Date, forgetBefore: Date) async throws {
        try await database.write { db in
            try await db.run("DELETE FROM login_failures WHERE failed_at < ?", forgetBefore)
            for key in keys { try await db.run("INSERT INTO login_failures (key_digest, failed_at) VALUES (?, ?)", key, now) }
        }
    }

    func clear(_ key: [UInt8]) async throws {
        try await database.write { db in _ = try await db.run("DELETE FROM login_failures WHERE key_digest = ?", key) }
    }
}
