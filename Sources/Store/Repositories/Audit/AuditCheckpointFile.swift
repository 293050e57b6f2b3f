import Foundation
import HealthwheelCore
import StoreContract

#if canImport(Glibc)
import Glibc
#endif

/// The audit trail's head, checkpointed outside the database: an append-only text file beside it
/// (`DataDirectory.auditHeadPath`), a line each time the head has moved, each marked with the audit key:
///
///     2026-11-27T23:30:00Z row 1234 hash 9f…e1 mark 4c…07
///
/// Rows cut off the trail's end leave a chain that still follows; the newest checkpoint names them
/// (`AuditRepository.verify(against:)`). The mark is an HMAC of the line's row and hash under the audit key, so
/// a line cannot be forged without the key; deleting lines can only be seen against a copy kept elsewhere, which
/// is why the server also logs each checkpoint and `healthwheel audit head` prints one for an operator to keep.
/// Blocking file I/O: callers run it off Swift's cooperative threads.
public struct AuditCheckpointFile: AuditHeadKeeping {
    public let path: String
    let key: AuditKey

    /// The file at `path`, its lines marked under `key`; nothing is touched yet.
    public init(path: String, key: AuditKey) {
        self.path = path
        self.key = key
    }

    /// A checkpoint read back: the head it keeps and when it was written.
    public struct Checkpoint: Sendable, Equatable {
        public var head: AuditHead
        public var writtenAt: String
    }

    /// Why the file cannot be trusted: a line that is not one of ours, or whose mark does not hold.
    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The line that keeps `head`, as written (without its newline).
    public func line(for head: AuditHead, at date: Date) -> String {
        let text = "row \(head.sequence) hash \(head.hash.hexString)"
        let stamp = ISO8601DateFormatter().string(from: date)
        return "\(stamp) \(text) mark \(key.mac(Array(text.utf8)).hexString)"
    }

    /// Appends a line for `head` and syncs it to disk (the file is created with mode 0600).
    public func append(_ head: AuditHead, at date: Date) throws {
        let bytes = Array((line(for: head, at: date) + "\n").utf8)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard write(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The newest checkpoint in the file, nil when there is no file or no line yet. Throws when a line is not
    /// one this key wrote: a checkpoint slipped in or altered.
    public func newestHead() throws -> AuditHead? { try newest()?.head }

    public func newest() throws -> Checkpoint? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var newest: Checkpoint?
        for (index, line) in text.split(separator: "\n").enumerated() {
            newest = try checkpoint(in: line, number: index + 1)
        }
        return newest
    }

    private func checkpoint(in line: Substring, number: Int) throws -> Checkpoint {
        let words = line.split(separator: " ")
        guard words.count == 7, words[1] == "row", words[3] == "hash", words[5] == "mark", let sequence = Int64(words[2]),
            let hash = [UInt8](hex: String(words[4])), let mark = [UInt8](hex: String(words[6]))
        else { throw Unreadable(description: "\(path) line \(number) is not a checkpoint") }
        guard mark == key.mac(Array("row \(words[2]) hash \(words[4])".utf8)) else {
            throw Unreadable(description: "\(path) line \(number) does not carry the audit key's mark: it was not written by this server")
        }
        return Checkpoint(head: AuditHead(sequence: sequence, hash: hash), writtenAt: String(words[0]))
    }
}
