import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

/// The first 16 bytes of every plain (unencrypted) SQLite file.
let plainSQLiteHeader = Data("SQLite format 3\u{0}".utf8)

/// The permission bits of a file, straight from stat(2).
func permissions(_ path: String) throws -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
    return info.st_mode & 0o777
}

func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// Replaces a file's contents and sets its mode, as an operator (or a crash) might leave it.
func writeFile(_ text: String, to path: String, mode: Int = 0o600) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
}

func readText(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

/// The key a data folder's key file holds.
func keyFromFile(_ directory: DataDirectory) throws -> DatabaseKey {
    try #require(DatabaseKey(hex: try readText(directory.keyPath)))
}

/// An environment that supplies `key` through `HEALTHWHEEL_DB_KEY`.
func environment(with key: DatabaseKey) -> [String: String] {
    [DataDirectory.keyVariable: key.hex]
}

func companyIds(_ connection: any SQLConnection) async throws -> Set<UUID> {
    Set(try await connection.query("SELECT id FROM companies").map { row in try row["id"] as UUID })
}

func insertCompany(named name: String, into connection: any SQLConnection) async throws {
    try await connection.run("INSERT INTO companies (id, name, created_at) VALUES (?, ?, ?)", UUID(), name, Date())
}

func randomDigest() -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
}

extension Optional where Wrapped == StoreError {
    var isMigration: Bool {
        if case .migration? = self { return true }
        return false
    }

    var isBusy: Bool {
        if case .busy? = self { return true }
        return false
    }

    var isCannotOpen: Bool {
        if case .cannotOpen? = self { return true }
        return false
    }
}

/// An open, migrated test database with its repositories and a hand-moved clock.
struct StoreFixture {
    let folder: TemporaryDirectory
    let opened: TestDatabase
    var database: any SQLDatabase { opened.database }
    let store: Repositories
    let clock = ManualClock()

    init(folder: TemporaryDirectory = TemporaryDirectory()) throws {
        self.folder = folder
        opened = try TestDatabase(folder)
        store = Repositories(database: opened.database)
    }

    @discardableResult
    func makeCompany(_ name: String = "Gym") async throws -> Company {
        let company = Company(name: name, createdAt: clock.now)
        try await store.companies.create(company)
        return company
    }

    @discardableResult
    func makeTrainer(
        in company: Company,
        name: String = "Sam",
        email: String? = nil,
        role: Role = .trainer,
        passwordHash: String = "not-a-real-hash"
    ) async throws -> Trainer {
        let trainer = Trainer(
            companyId: company.id,
            email: email ?? "\(UUID().uuidString.lowercased())@example.com",
            name: name,
            role: role,
            createdAt: clock.now,
            updatedAt: clock.now
        )
        try await store.trainers.create(trainer, passwordHash: passwordHash, audit: .byTest)
        return trainer
    }

    /// Creates a session for `trainer` that lives for an hour from the clock's now; returns its digest.
    @discardableResult
    func makeSession(for trainer: Trainer, lifetime: TimeInterval = 3600) async throws -> [UInt8] {
        let digest = randomDigest()
        try await store.sessions.create(
            tokenDigest: digest,
            trainer: trainer.id,
            createdAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(lifetime)
        )
        return digest
    }

    func sessionCount(of trainer: UUID) throws -> Int {
        try database.readBlocking { try await $0.scalar("SELECT count(*) FROM sessions WHERE trainer_id = ?", trainer) }
    }
}

/// 20 push-ups for `client`, scored 6, as a result the repository is given (not yet stored).
func pushUps(for client: Client, by trainer: Trainer, at now: Date) -> AssessmentResult {
    var result = AssessmentResult(
        clientId: client.id,
        companyId: client.companyId,
        exerciseOwner: "*",
        exerciseId: "push-ups",
        categoryId: "endurance",
        packVersion: 1,
        trainerId: trainer.id,
        values: ["count": 20],
        observations: nil,
        recordedAt: now,
        createdAt: now
    )
    result.score = 6
    return result
}
