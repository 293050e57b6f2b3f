import Foundation

/// Where the audit trail's head is kept outside the database, so rows later cut off the trail's end are named
/// (`AuditCheckpointFile`, a file beside the data). Blocking I/O: callers run it off Swift's cooperative threads.
public protocol AuditHeadKeeping: Sendable {
    /// The line written for `head` at `date` (what the server logs too, for a copy kept elsewhere).
    func line(for head: AuditHead, at date: Date) -> String
    /// Appends a line for `head` and makes it durable.
    func append(_ head: AuditHead, at date: Date) throws
    /// The head of the newest line kept, or nil when none is.
    func newestHead() throws -> AuditHead?
}
