// Single-row write transactions per second through Store's own `SQLiteConnection`, with no HTTP and no group commit:
// the floor that bench/run compares results_post with (results_post: ratio_to_raw_commits). One writer opens an
// encrypted database in a fresh folder under --dir, sets the server writer's durability (WAL, synchronous = FULL)
// and loops `BEGIN IMMEDIATE; INSERT …; COMMIT` for --seconds. Prints one line and removes its files:
//   sqlcipher_raw_commits: commits_per_s=… commits=… seconds=…
// Usage: store-bench --dir PATH [--seconds N]

import Foundation
import Store
import StoreContract

struct Options {
    var directory: String?
    var seconds = 3.0

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let argument = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--dir": directory = argument
            case "--seconds":
                guard let seconds = Double(argument), seconds > 0, seconds <= 600 else { fail("--seconds needs a number in (0, 600]") }
                self.seconds = seconds
            default: fail("unknown option \(flag); usage: store-bench --dir PATH [--seconds N]")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("store-bench: \(message)\n".utf8))
    exit(1)
}

/// A row about the size of a stored result: ids, an exercise, its values as JSON, a score and two timestamps.
func insert(_ connection: SQLiteConnection, _ number: Int) throws {
    try connection.run(
        "INSERT INTO raw_results (id, client_id, exercise_id, values_json, score, recorded_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        UUID().uuidString.lowercased(),
        "6f1c2b9e-0d4a-4c1e-9a7b-3e5d8f2a1c00",
        "resting-heart-rate",
        "{\"heartRate\":\(60 + number % 7)}",
        Double(number % 100) / 10,
        "2026-01-01T00:00:00Z",
        Int64(number)
    )
}

let options = Options(CommandLine.arguments)
guard let parent = options.directory else { fail("--dir is required (a folder on the disk to measure)") }
let folder = (parent as NSString).appendingPathComponent("store-bench-\(UUID().uuidString.lowercased())")
do {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
} catch {
    fail("cannot create \(folder): \(error)")
}
defer { try? FileManager.default.removeItem(atPath: folder) }

let commits: Int
let elapsed: Double
do {
    let connection = try SQLiteConnection(path: (folder as NSString).appendingPathComponent("raw.db"), key: .random())
    try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
    try connection.execute(
        """
        CREATE TABLE raw_results (
            id TEXT PRIMARY KEY NOT NULL, client_id TEXT NOT NULL, exercise_id TEXT NOT NULL,
            values_json TEXT NOT NULL, score REAL, recorded_at TEXT NOT NULL, created_at INTEGER NOT NULL
        )
        """
    )
    // A few commits first, so the WAL file exists and the statement is prepared before the clock starts.
    for number in 0..<20 { try connection.transaction { try insert(connection, number) } }

    let clock = ContinuousClock()
    let start = clock.now
    let end = start + .seconds(options.seconds)
    var count = 0
    repeat {
        try connection.transaction { try insert(connection, count) }
        count += 1
    } while clock.now < end
    elapsed = (clock.now - start) / .seconds(1)
    commits = count
    let rows: Int64 = try connection.scalar("SELECT count(*) FROM raw_results")
    guard rows == Int64(count + 20) else { fail("expected \(count + 20) rows, found \(rows)") }
} catch {
    fail("\(error)")
}
print(
    "sqlcipher_raw_commits: commits_per_s=\(String(format: "%.0f", Double(commits) / elapsed)) commits=\(commits) "
        + "seconds=\(String(format: "%.2f", elapsed))"
)
