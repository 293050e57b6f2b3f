import Foundation
import StoreContract
import Synchronization

/// Which tables this process's committed writes have changed: a counter per table that moves once a commit that
/// changed rows of it has returned. A cache of what is read from some tables keeps its entries while the sum
/// of their counters (its stamp) has not moved, so a result posted for one client does not evict another's
/// client record, and nobody has to remember to invalidate: the writer connection's update hook sees every
/// changed row, whichever code path (or trigger, or cascade) changed it.
///
/// Only tables with rowids can be watched (SQLite's update hook does not report `WITHOUT ROWID` tables).
final class TableChanges: Sendable {
    private let counters = Mutex<[String: Int]>([:])
    /// Moved by work that manages its own transactions (migrations, restore, rekey): every stamp changes.
    private let epoch = Atomic<Int>(0)

    /// A number that moves whenever a commit changed a row of one of `tables`.
    func stamp(of tables: [String]) -> Int {
        let sum = counters.withLock { counters in tables.reduce(0) { $0 &+ (counters[$1] ?? 0) } }
        return sum &+ epoch.load(ordering: .acquiring)
    }

    /// Call once the commit that changed rows of `tables` has returned.
    func advance(_ tables: Set<String>) {
        guard !tables.isEmpty else { return }
        counters.withLock { counters in
            for table in tables { counters[table, default: 0] &+= 1 }
        }
    }

    /// Moves every stamp.
    func advanceAll() {
        epoch.add(1, ordering: .releasing)
    }
}

/// The tables changed by the writer's open transaction, collected by its update hook. Used by the writer thread
/// only; a table's name becomes a `String` once per batch, not once per changed row.
final class ChangedTables {
    private var names: [String] = []

    func note(_ name: UnsafePointer<CChar>) {
        for known in names where strcmp(known, name) == 0 { return }
        names.append(String(cString: name))
    }

    /// The tables noted since the last call.
    func take() -> Set<String> {
        defer { names.removeAll(keepingCapacity: true) }
        return Set(names)
    }
}
