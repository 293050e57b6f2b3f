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
///
/// A change (`INSERT`, `UPDATE`, `DELETE`, after its `WITH` list if it has one) is counted by the rows it returns:
/// postgres-nio gives a prepared statement's rows but not the tag that counts the rows it changed, so a change
/// without a `RETURNING` clause of its own is sent with `RETURNING 1` (`counted`).
final class StatementCatalog: Sendable {
    static let maximumTexts = 4_000
    static let maximumPrepared = 1_000

    private struct Entry {
        /// The text sent: numbered, and for a change counted (`counted`).
        let numbered: String
        /// Whether it may be prepared: not a command `run` sends that is no change (`Command`).
        var preparable = true
        /// Prepared names by the parameters' types (`StatementCatalog.signature`).
        var names: [String: String] = [:]
    }

    /// A statement as `run` sends it: a change returns a row per changed row, so that it can be prepared and still
    /// counted; any other statement is sent unnamed and counted by its tag.
    enum Command {
        case change(text: String, name: String?)
        case other(text: String)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// The texts `run` sends, apart: a text both run and queried is prepared once as each.
        var commands: [String: Entry] = [:]
        var prepared = 0
    }

    private let state = Mutex(State())
    /// Each prepared statement's columns by name, as its rows are read (`Row`): found once, not on every query.
    private let columnsByName = Mutex<[String: [String: Int]]>([:])

    /// The columns of the statement prepared under `name`, from `finding` the first time.
    func columns(ofPrepared name: String, finding: () -> [String: Int]) -> [String: Int] {
        if let known = columnsByName.withLock({ $0[name] }) { return known }
        let columns = finding()
        columnsByName.withLock { $0[name] = columns }
        return columns
    }

    /// `sql` with its parameters numbered, and the name it is prepared under with parameters of `signature`'s
    /// types (nil: send it unnamed).
    func statement(_ sql: String, signature: String, preparing: Bool) -> (text: String, name: String?) {
        let (text, name, _) = entry(sql, in: \.entries, signature: signature, preparing: preparing) { Entry(numbered: Self.numberingParameters($0)) }
        return (text, name)
    }

    /// `sql` as `run` sends it (`Command`).
    func command(_ sql: String, signature: String, preparing: Bool) -> Command {
        let (text, name, isChange) = entry(sql, in: \.commands, signature: signature, preparing: preparing) { sql in
            let numbered = Self.numberingParameters(sql)
            guard let counted = Self.counted(numbered) else { return Entry(numbered: numbered, preparable: false) }
            return Entry(numbered: counted)
        }
        return isChange ? .change(text: text, name: name) : .other(text: text)
    }

    /// The entry of `sql` in `texts`, made by `making` if it is new: its text, its prepared name for `signature`
    /// (nil: send it unnamed) and whether it may be prepared.
    private func entry(
        _ sql: String,
        in texts: WritableKeyPath<State, [String: Entry]>,
        signature: String,
        preparing: Bool,
        making: (String) -> Entry
    ) -> (String, String?, Bool) {
        state.withLock { state in
            // The usual case, one lookup: a known text, prepared already with these types (or not to be).
            var entry: Entry
            if let known = state[keyPath: texts][sql] {
                entry = known
                if let name = entry.names[signature], preparing { return (entry.numbered, name, true) }
            } else {
                entry = making(sql)
                guard state[keyPath: texts].count < Self.maximumTexts else { return (entry.numbered, nil, entry.preparable) }
                state[keyPath: texts][sql] = entry
            }
            guard preparing, entry.preparable, state.prepared < Self.maximumPrepared else { return (entry.numbered, nil, entry.preparable) }
            state.prepared += 1
            let name = "hw_\(state.prepared)"
            state[keyPath: texts][sql]!.names[signature] = name
            return (entry.numbered, name, true)
        }
    }

    /// `numbered` with `RETURNING 1` after its main statement if that is a change without a `RETURNING` clause; itself
    /// if it is one with it; nil if it is no change. Only words outside quotes, comments and parentheses count: a
    /// `WITH` list's statements are in parentheses.
    static func counted(_ numbered: String) -> String? {
        var words: [Substring] = []
        var depth = 0
        var characters = numbered.unicodeScalars[...]
        var word = ""
        func endWord() {
            if depth == 0, !word.isEmpty { words.append(Substring(word.uppercased())) }
            word = ""
        }
        while let character = characters.popFirst() {
            if character.properties.isAlphabetic || character == "_" {
                word.unicodeScalars.append(character)
                continue
            }
            endWord()
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "'", "\"":
                while let next = characters.popFirst(), next != character {}
            case "-" where characters.first == "-":
                while let next = characters.popFirst(), next != "\n" {}
            case "/" where characters.first == "*":
                while let next = characters.popFirst(), !(next == "*" && characters.first == "/") {}
                _ = characters.popFirst()
            default: break
            }
        }
        endWord()
        guard let main = words.first(where: { ["SELECT", "INSERT", "UPDATE", "DELETE", "VALUES", "TABLE"].contains($0) }),
            words.first == main || words.first == "WITH",
            ["INSERT", "UPDATE", "DELETE"].contains(main)
        else { return nil }
        if words.contains("RETURNING") { return numbered }
        var text = numbered
        while let last = text.unicodeScalars.last, last == ";" || last.properties.isWhitespace { text.unicodeScalars.removeLast() }
        return text + "\nRETURNING 1"
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
