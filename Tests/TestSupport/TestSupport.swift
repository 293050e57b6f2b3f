import Foundation
import HealthwheelCore
import Store
import StoreContract
import Synchronization

/// A fresh folder under the system temp dir, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("healthwheel-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public var path: String { url.path }
    public var dataDirectory: DataDirectory { DataDirectory(path: url.appendingPathComponent("data").path) }
}

/// The checkout this test was built from.
public enum RepositoryRoot {
    public static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static var migrations: URL { url.appendingPathComponent("Migrations") }
    public static var migrator: Migrator { try! Migrator(directory: migrations) }
    /// PostgreSQL's migrations, beside SQLite's.
    public static var postgresMigrator: Migrator { try! Migrator(directory: migrations.appendingPathComponent("postgres")) }
}

/// The `healthwheel` executable built next to the test bundle: the CLI tests run it, and every test's scoring
/// workers are it (`healthwheel score-worker`), as a server's are.
public enum HealthwheelExecutable {
    public static let url: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("healthwheel")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return RepositoryRoot.url.appendingPathComponent(".build/debug/healthwheel")
    }()
}

/// A clock the test moves by hand.
public final class ManualClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// An environment with no key variable, so the key file is used.
public let keyFileEnvironment: [String: String] = [:]

/// Opens (creating and migrating) the encrypted database of a temporary data folder.
public func openTestDatabase(_ folder: TemporaryDirectory) throws -> SQLiteDatabase {
    try folder.dataDirectory.openDatabase(migrator: RepositoryRoot.migrator, environment: keyFileEnvironment)
}

/// Every file of the data folder, byte for byte, by name.
public func snapshot(_ directory: DataDirectory) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
        files[name] = try Data(contentsOf: directory.url.appendingPathComponent(name))
    }
    return files
}

extension AuditEvent {
    /// The audit line of a change a test makes straight through a repository, as the operator would.
    public static var byTest: AuditEvent {
        .company(.changed, .company, id: nil, in: UUID(), by: .operatorCommand, at: Date(timeIntervalSince1970: 1_800_000_000))
    }
}

/// A flag set once, read from any task.
public final class ManagedFlag: Sendable {
    private let value = Mutex(false)

    public init() {}

    public var isSet: Bool { value.withLock { $0 } }
    public func set() { value.withLock { $0 = true } }
}

/// A count that several tasks or threads add to and a test reads.
public final class Tally: Sendable {
    private let value = Mutex(0)

    public init() {}

    public func add() { value.withLock { $0 += 1 } }
    public var count: Int { value.withLock { $0 } }
}

/// A small seeded generator (SplitMix64), so a failing run (kill moments, devices' offline work) can be replayed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
