import Foundation
import HealthwheelCore
import StoreContract

struct SQLExercisePackRepository: ExercisePackRepository {
    let database: any SQLDatabase

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    func save(_ packs: [ExercisePack], owner: String, at now: Date, audit: ((ExercisePack) -> AuditEvent)?) async throws -> [ExercisePackSaveOutcome]
    {
        let definitions = try packs.map { String(decoding: try Self.encoder.encode($0), as: UTF8.self) }
        do {
            return try await database.write { db in
                // Nodes starting together import the shipped packs at once: on PostgreSQL the catalog's version row
                // makes them take turns, so the second finds the first's packs stored.
                if db.dialect == .postgres { _ = try await db.query("SELECT version FROM catalog_version WHERE id = 1 FOR UPDATE") }
                var outcomes: [ExercisePackSaveOutcome] = []
                for (pack, definition) in zip(packs, definitions) {
                    let outcome = try await Self.save(pack, definition: definition, owner: owner, at: now, db)
                    if outcome == .imported, let audit { try await AuditChain.append(audit(pack), db) }
                    outcomes.append(outcome)
                }
                if outcomes.contains(where: { if case .versionConflict = $0 { true } else { false } }) {
                    throw RolledBack(outcomes: outcomes)
                }
                return outcomes
            }
        } catch let rolledBack as RolledBack {
            return rolledBack.outcomes
        }
    }

    /// Undoes a batch with a version conflict; carries what each pack's outcome was.
    private struct RolledBack: Error {
        var outcomes: [ExercisePackSaveOutcome]
    }

    private static func save(
        _ pack: ExercisePack,
        definition: String,
        owner: String,
        at now: Date,
        _ db: any SQLConnection
    ) async throws
        -> ExercisePackSaveOutcome
    {
        let rows = try await db.query(
            "SELECT version, definition FROM exercise_packs WHERE owner = ? AND id = ? ORDER BY version DESC LIMIT 1",
            owner,
            pack.id
        )
        if let latest = rows.first {
            let version: Int = try latest["version"]
            let stored: String = try latest["definition"]
            if version == pack.version && stored == definition { return .unchanged }
            if version >= pack.version { return .versionConflict(latest: version) }
        }
        try await db.run(
            "INSERT INTO exercise_packs (owner, id, version, definition, imported_at) VALUES (?, ?, ?, ?, ?)",
            owner,
            pack.id,
            pack.version,
            definition,
            now
        )
        try await db.run("UPDATE catalog_version SET version = version + 1 WHERE id = 1")
        return .imported
    }

    func catalogVersion() async throws -> Int64 {
        try await database.read { db in try await db.scalar("SELECT version FROM catalog_version WHERE id = 1") as Int64? ?? 0 }
    }

    func latestVersions() async throws -> [StoredExercisePack] {
        let rows = try await database.read { db in
            try await db.query(
                """
                SELECT p.owner, p.definition, p.imported_at FROM exercise_packs p
                WHERE p.version = (SELECT max(q.version) FROM exercise_packs q WHERE q.owner = p.owner AND q.id = p.id)
                ORDER BY p.owner, p.id
                """
            )
        }
        return try rows.map { row in
            StoredExercisePack(owner: try row["owner"], pack: try Self.decode(try row["definition"]), importedAt: try row["imported_at"])
        }
    }

    func find(owner: String, id: String, version: Int) async throws -> ExercisePack? {
        let definition: String? = try await database.read { db in
            try await db.query("SELECT definition FROM exercise_packs WHERE owner = ? AND id = ? AND version = ?", owner, id, version)
                .first.map { try $0["definition"] }
        }
        return try definition.map(Self.decode)
    }

    private static func decode(_ definition: String) throws -> ExercisePack {
        try JSONDecoder().decode(ExercisePack.self, from: Data(definition.utf8))
    }
}
