import HealthwheelCore
import StoreContract
import Synchronization

/// PostgreSQL: results recorded while others are being committed wait and go in together, one transaction for up to
/// `maximumGroup` of them, as the embedded store's writer groups its jobs (`GroupCommitWriter`).
///
/// Every result moves its client's results version and appends to the audit trail, whose head is one row for the
/// whole database: alone, each result holds that row from its statement to its commit, flush included, so results
/// are committed one after the other, at the disk's flush rate, from every node. A group inserts its results and
/// moves its clients' counts in one statement (their rows locked in client order, as every group's are, so two
/// groups never wait for each other's), then locks the head once and adds the audit rows in one more, and is
/// flushed once: five round trips with `BEGIN` and `COMMIT`, however many results.
///
/// A result that arrives while nothing is being committed goes alone, in one statement (`single`). If a group
/// fails (a client erased meanwhile), each of its results is tried alone, so that only the one at fault fails.
final class GroupedResultInserts: Sendable {
    /// One result waiting for its group: its `results` row's values (identity and state columns) and its audit
    /// row, made ready before it queued.
    struct Pending: Sendable {
        let values: [any SQLConvertible]
        let audit: AuditChain.Entry
    }

    /// At most this many results per transaction: a bound on one statement's parameters (20 a result) and on how
    /// long the group holds the audit trail's head.
    static let maximumGroup = 50

    private struct Waiting: Sendable {
        let pending: Pending
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Line: ~Copyable {
        var waiting: [Waiting] = []
        var committing = false
    }

    private let database: any SQLDatabase
    private let insert: String
    private let single: @Sendable (Pending) async throws -> Void
    private let line = Mutex(Line())

    /// - Parameters:
    ///   - columns: the `results` columns each pending result's values are for, in their order.
    ///   - single: records one result alone (one statement, its own transaction).
    init(database: any SQLDatabase, columns: [String], single: @escaping @Sendable (Pending) async throws -> Void) {
        self.database = database
        insert = "INSERT INTO results (\(columns.joined(separator: ", "))) VALUES "
        self.single = single
    }

    /// Records `pending` with whatever is waiting when the group before it is committed; returns once it is.
    func record(_ pending: Pending) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let leads = line.withLock { line in
                line.waiting.append(Waiting(pending: pending, continuation: continuation))
                defer { line.committing = true }
                return !line.committing
            }
            // The first to find nothing committing commits, until the line is empty; the others wait for it.
            if leads { Task { await commitWhileWaiting() } }
        }
    }

    private func commitWhileWaiting() async {
        while true {
            let group = line.withLock { line -> [Waiting] in
                let group = Array(line.waiting.prefix(Self.maximumGroup))
                line.waiting.removeFirst(group.count)
                if group.isEmpty { line.committing = false }
                return group
            }
            if group.isEmpty { return }
            await commit(group)
        }
    }

    private func commit(_ group: [Waiting]) async {
        if group.count > 1 {
            do {
                try await commitTogether(group.map(\.pending))
                for waiting in group { waiting.continuation.resume() }
                return
            } catch {
                // Each alone below: only a result at fault fails.
            }
        }
        for waiting in group {
            do {
                try await single(waiting.pending)
                waiting.continuation.resume()
            } catch {
                waiting.continuation.resume(throwing: error)
            }
        }
    }

    private func commitTogether(_ group: [Pending]) async throws {
        let row = "(" + Array(repeating: "?", count: group[0].values.count).joined(separator: ", ") + ")"
        try await database.write { db in
            // The counts go in client order (ORDER BY), which is the order their rows are locked in.
            try await db.run(
                """
                WITH recorded AS (\(insert) \(Array(repeating: row, count: group.count).joined(separator: ", ")) RETURNING client_id)
                INSERT INTO client_results_versions (client_id, version)
                SELECT client_id, count(*) FROM recorded GROUP BY client_id ORDER BY client_id
                ON CONFLICT (client_id) DO UPDATE SET version = client_results_versions.version + excluded.version
                """,
                group.flatMap(\.values)
            )
            try await AuditChain.appendAll(group.map(\.audit), db)
        }
    }
}
