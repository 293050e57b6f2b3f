#if PostgreSQL
import Foundation
import PostgresNIO
import Synchronization

/// The statement texts this node has sent: each numbered once (`?` to `$1…`), and the names under which they are
/// prepared on the server.
///
/// A prepared statement is parsed and planned once per connection, then only bound and run. Its parameter types
/// are fixed when it is prepared, so a text bound with other types (a NULL where an integer went) gets another
/// name. The repositories' texts are constants but for a few built from filters or lists; past
/// `maximumTexts` and `maximumPrepared`, a new text is numbered each time and sent unnamed, so no input can grow
/// what the server or this node keeps.
final class StatementCatalog: Sendable {
    static let maximumTexts = 4_000
    static let maximumPrepared = 1_000

    private struct Entry {
        let numbered: String
        /// Prepared names by the parameters' types (`StatementCatalog.signature`).
        var names: [String: String] = [:]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var prepared = 0
    }

    private let state = Mutex(State())

    /// `sql` with its parameters numbered, and the name it is prepared under with parameters of `signature`'s
    /// types (nil: send it unnamed).
    func statement(_ sql: String, signature: String, preparing: Bool) -> (text: String, name: String?) {
        state.withLock { state in
            // The usual case, one lookup: a known text, prepared already with these types (or not to be).
            if let entry = state.entries[sql] {
                if !preparing { return (entry.numbered, nil) }
                if let name = entry.names[signature] { return (entry.numbered, name) }
            } else {
                let numbered = Self.numberingParameters(sql)
                guard state.entries.count < Self.maximumTexts else { return (numbered, nil) }
                state.entries[sql] = Entry(numbered: numbered)
            }
            let numbered = state.entries[sql]!.numbered
            guard preparing, state.prepared < Self.maximumPrepared else { return (numbered, nil) }
            state.prepared += 1
            let name = "hw_\(state.prepared)"
            state.entries[sql]!.names[signature] = name
            return (numbered, name)
        }
    }

    /// The types of `arguments` in one word, a letter each.
    static func signature(_ arguments: [SQLValue]) -> String {
        String(
            arguments.map { value -> Character in
                switch value {
                case .null: "n"
                case .integer: "i"
                case .real: "r"
                case .text: "t"
                case .blob: "b"
                }
            }
        )
    }

    /// `?` becomes `$1`, `$2`, … in order and `?NNN` becomes `$NNN` (a bare `?` after `?3` is `$4`, as in
    /// SQLite); question marks inside quotes and comments stay.
    static func numberingParameters(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var characters = sql.unicodeScalars[...]
        var highest = 0
        while let character = characters.popFirst() {
            switch character {
            case "'", "\"":
                output.unicodeScalars.append(character)
                while let next = characters.popFirst() {
                    output.unicodeScalars.append(next)
                    if next == character { break }
                }
            case "-" where characters.first == "-":
                output.unicodeScalars.append(character)
                while let next = characters.popFirst() {
                    output.unicodeScalars.append(next)
                    if next == "\n" { break }
                }
            case "?":
                let digits = characters.prefix { ("0"..."9").contains($0) }
                characters = characters.dropFirst(digits.count)
                let number = digits.isEmpty ? highest + 1 : Int(String(String.UnicodeScalarView(digits)))!
                highest = max(highest, number)
                output += "$\(number)"
            default:
                output.unicodeScalars.append(character)
            }
        }
        return output
    }
}

/// A statement of the catalog, run as a postgres-nio prepared statement.
///
/// postgres-nio names a prepared statement by its type (`PostgresPreparedStatement.name` and `sql` are static),
/// which suits statements known when the program is written; the repositories' statements are texts. The name
/// and text are therefore read from a task-local value that `PostgreSQLConnection` sets around the one call that
/// reads them (`PostgresConnection.execute`, which reads both before it first suspends).
struct PreparedQuery: PostgresPreparedStatement {
    @TaskLocal static var current: (name: String, sql: String) = ("", "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    typealias Row = PostgresRow
    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

/// Watches the statements in flight: one unanswered past the deadline has its connection closed, which fails it
/// and makes the pool open another, so a server that stopped answering without closing the connection (a network
/// dropping packets, a failover) never holds a request, or a stop of the node, for as long as TCP keeps the socket.
final class StatementWatchdog: Sendable {
    struct Watch: Sendable {
        fileprivate let id: Int
    }

    private struct InFlight {
        let connection: PostgresConnection
        let since: ContinuousClock.Instant
        var expired = false
    }

    private struct State {
        var inFlight: [Int: InFlight] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())
    private let deadline: Duration
    private let ticking = Mutex<Task<Void, Never>?>(nil)

    init(deadline: Duration) {
        self.deadline = deadline
        // Looks four times per deadline (at least once a second), so a statement fails within a quarter of the
        // deadline after it.
        let interval = min(.seconds(1), deadline / 4)
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                self?.closeOverdue()
            }
        }
        ticking.withLock { $0 = task }
    }

    private func closeOverdue() {
        let now = ContinuousClock.now
        let overdue = state.withLock { state -> [PostgresConnection] in
            var overdue: [PostgresConnection] = []
            for (id, statement) in state.inFlight where !statement.expired && now - statement.since > deadline {
                state.inFlight[id]!.expired = true
                overdue.append(statement.connection)
            }
            return overdue
        }
        for connection in overdue { let _: EventLoopFuture<Void> = connection.close() }
    }

    func watch(_ connection: PostgresConnection) -> Watch {
        state.withLock { state in
            state.nextID += 1
            state.inFlight[state.nextID] = InFlight(connection: connection, since: .now)
            return Watch(id: state.nextID)
        }
    }

    /// Whether `watch`'s statement ran past the deadline (and its connection was closed for it).
    func expired(_ watch: Watch) -> Bool {
        state.withLock { $0.inFlight[watch.id]?.expired ?? false }
    }

    func release(_ watch: Watch) {
        _ = state.withLock { $0.inFlight.removeValue(forKey: watch.id) }
    }

    func stop() { ticking.withLock { $0?.cancel() } }

    deinit { stop() }

    /// What a statement past the deadline fails with.
    var failure: PostgreSQLError {
        PostgreSQLError(
            sqlState: nil,
            message: "no answer within \(deadline.formatted(.units(allowed: [.seconds, .milliseconds]))); connection closed"
        )
    }
}
#endif
