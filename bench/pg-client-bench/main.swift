// pgbench's select-only transaction (`SELECT abalance FROM pgbench_accounts WHERE aid = $1`, a random aid) run from
// Swift, to split what a warm read on PostgreSQL costs the node between the client library and our store:
//   pg_client_select_only: postgres-nio's `PostgresClient` alone, a prepared statement per call;
//   pg_store_select_only: the same statement through Store's `PostgreSQLDatabase.read` (its pool, watchdog, statement
//     catalog and rows as the repositories read them).
// Both use --connections concurrent callers on as many connections, with the URL's TLS, for --seconds each; bench/run
// runs them next to `pgbench -S` with the same connections, on a database `pgbench -i` filled. Prints one line each:
//   pg_client_select_only: tps=… statements=… seconds=…
// Usage: pg-client-bench --url URL [--connections N] [--seconds N]
// Built only with the PostgreSQL trait.

#if PostgreSQL
import Foundation
import Logging
import PostgresNIO
import Store
import StoreContract

struct Options {
    var url: PostgreSQLURL?
    var connections = 16
    var seconds = 3.0

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let argument = rest.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--url":
                do { url = try PostgreSQLURL(argument) } catch { fail("--url: \(error)") }
            case "--connections":
                guard let count = Int(argument), (1...256).contains(count) else { fail("--connections needs a number in 1...256") }
                connections = count
            case "--seconds":
                guard let seconds = Double(argument), seconds > 0, seconds <= 600 else { fail("--seconds needs a number in (0, 600]") }
                self.seconds = seconds
            default: fail("unknown option \(flag); usage: pg-client-bench --url URL [--connections N] [--seconds N]")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("pg-client-bench: \(message)\n".utf8))
    exit(1)
}

/// pgbench's select-only statement, prepared once per connection by postgres-nio.
struct SelectBalance: PostgresPreparedStatement {
    static let sql = "SELECT abalance FROM pgbench_accounts WHERE aid = $1"
    typealias Row = Int32
    let aid: Int32

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(aid)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int32 { try row.decode(Int32.self) }
}

/// Statements per second from `callers` loops of `statement` over `seconds`.
func measure(callers: Int, seconds: Double, _ statement: @escaping @Sendable (Int32) async throws -> Void) async throws -> (Double, Int) {
    let accounts: Int32 = 100_000  // pgbench -i at scale 1
    let started = ContinuousClock.now
    let deadline = started + .milliseconds(Int(seconds * 1000))
    let total = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<callers {
            group.addTask {
                var count = 0
                while ContinuousClock.now < deadline {
                    try await statement(Int32.random(in: 1...accounts))
                    count += 1
                }
                return count
            }
        }
        return try await group.reduce(0, +)
    }
    let elapsed = started.duration(to: .now)
    let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(total) / elapsedSeconds, total)
}

func report(_ name: String, _ outcome: (Double, Int), seconds: Double) {
    print(String(format: "%@: tps=%.0f statements=%d seconds=%.0f", name, outcome.0, outcome.1, seconds))
}

let options = Options(CommandLine.arguments)
guard let url = options.url else { fail("--url is needed") }
var logger = Logger(label: "pg-client-bench")
logger.logLevel = .error

let configuration: PostgresClient.Configuration
do {
    // The node's own: same TLS, session settings and kept connections.
    configuration = try PostgreSQLDatabase.poolConfiguration(url, connections: options.connections)
} catch {
    fail("\(error)")
}
let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
let running = Task { await client.run() }
do {
    // A warm-up second each, so that connections are open and statements prepared before the clock starts.
    let direct: @Sendable (Int32) async throws -> Void = { aid in
        try await client.withConnection { connection in
            let rows = try await connection.execute(SelectBalance(aid: aid), logger: logger)
            for try await _ in rows {}
        }
    }
    _ = try await measure(callers: options.connections, seconds: 1, direct)
    report("pg_client_select_only", try await measure(callers: options.connections, seconds: options.seconds, direct), seconds: options.seconds)
    running.cancel()

    let database = try PostgreSQLDatabase(url: url, sealer: nil, auditKey: nil, connections: options.connections, logger: logger)
    let throughStore: @Sendable (Int32) async throws -> Void = { aid in
        _ = try await database.read { db in try await db.query("SELECT abalance FROM pgbench_accounts WHERE aid = ?", Int(aid)) }
    }
    _ = try await measure(callers: options.connections, seconds: 1, throughStore)
    report("pg_store_select_only", try await measure(callers: options.connections, seconds: options.seconds, throughStore), seconds: options.seconds)
    database.close()
} catch {
    fail("\(error)")
}
#else
import Foundation

FileHandle.standardError.write(Data("pg-client-bench: built without the PostgreSQL trait (swift build --traits PostgreSQL)\n".utf8))
exit(1)
#endif
