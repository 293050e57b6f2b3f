/// Where an app stands in its company's changes feed: after the audit trail's line at `sequence`, whose link in the
/// hash chain starts with `check`. The check is what makes a cursor too old to serve detectable: a database put
/// back from a backup (or another server's) numbers lines again, and a line at the same place with another
/// hash means the app's copy followed a history the trail no longer has. Opaque to apps: base64url of a version
/// byte, the sequence (8 bytes, big-endian) and the check (none at the start, else 8 bytes).
public struct ChangesCursor: Sendable, Equatable {
    public var sequence: Int64
    /// The first `checkLength` bytes of the line's hash; empty at the start of the trail.
    public var check: [UInt8]

    /// How much of a line's hash a cursor keeps: 64 bits, enough that a different history is never taken for the same.
    public static let checkLength = 8
    private static let version: UInt8 = 1

    /// Before the company's first line.
    public static let start = ChangesCursor(sequence: 0, check: [])

    /// After the line at `sequence` whose hash is `hash`.
    public init(after sequence: Int64, hash: [UInt8]) {
        self.init(sequence: sequence, check: Array(hash.prefix(Self.checkLength)))
    }

    private init(sequence: Int64, check: [UInt8]) {
        self.sequence = sequence
        self.check = check
    }

    /// Whether the trail's line at `sequence` (its hash, or nil when the company has none there) is the one this
    /// cursor was made after.
    public func isAfter(lineWithHash hash: [UInt8]?) -> Bool {
        guard sequence > 0 else { return true }
        guard let hash else { return false }
        return Array(hash.prefix(Self.checkLength)) == check
    }

    public var token: String {
        var bytes: [UInt8] = [Self.version]
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: UInt64(sequence) >> UInt64(shift))) }
        return Base64URL.encode(bytes + check)
    }

    /// Reads a `token`; nil for anything this server did not hand out.
    public init?(token: String) {
        guard token.utf8.count <= 32, let bytes = Base64URL.decode(token), bytes.first == Self.version,
            bytes.count == 9 || bytes.count == 9 + Self.checkLength
        else { return nil }
        let sequence = bytes[1..<9].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard sequence <= UInt64(Int64.max) else { return nil }
        let check = Array(bytes[9...])
        // The start has no check, and every other place has one.
        guard (sequence == 0) == check.isEmpty else { return nil }
        self.init(sequence: Int64(sequence), check: check)
    }
}
