/// Cryptographically random bytes: tokens, salts, nonces, key material. On Linux `SystemRandomNumberGenerator`
/// reads `getrandom(2)`, one system call per word it gives, so the bytes are taken eight at a time (a 16-byte
/// salt is two calls, not sixteen: an audit row on every write made these calls a measurable part of a write).
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// Lower-case hex of `count` random bytes.
    public static func hex(_ count: Int) -> String {
        bytes(count).hexString
    }
}
