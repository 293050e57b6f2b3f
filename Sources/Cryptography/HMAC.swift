/// HMAC-SHA-256 (RFC 2104), written over `SHA256` so the pads a caller keeps (the audit chain hands them to
/// PostgreSQL, which computes the same code in SQL) are the very ones used here.
public struct HMACSHA256: Sendable {
    /// The key padded to SHA-256's 64-byte block and XORed with HMAC's inner and outer constants.
    public let pads: (inner: [UInt8], outer: [UInt8])

    /// A key of any length: one longer than a block is hashed first, as RFC 2104 says.
    public init(key: [UInt8]) {
        let short = key.count > 64 ? SHA256.digest(key) : key
        let block = short + [UInt8](repeating: 0, count: 64 - short.count)
        pads = (block.map { $0 ^ 0x36 }, block.map { $0 ^ 0x5C })
    }

    /// The 32-byte code of `parts`, one after another.
    public func code(_ parts: [UInt8]...) -> [UInt8] { code(of: parts) }

    /// The 32-byte code of `parts`, one after another.
    public func code(of parts: [[UInt8]]) -> [UInt8] {
        let inner = SHA256.Hasher()
        inner.update(pads.inner)
        for part in parts { inner.update(part) }
        return SHA256.digest(pads.outer + inner.finalize())
    }
}

/// HKDF-SHA-256 (RFC 5869): keys derived from one key, for distinct uses.
public enum HKDFSHA256 {
    /// `count` bytes (at most 8,160) of key material derived from `key` for `info`, under `salt` (none: zeros).
    public static func derive(key: [UInt8], salt: [UInt8] = [], info: [UInt8], count: Int) -> [UInt8] {
        precondition(count <= 255 * 32, "HKDF-SHA-256 derives at most 8,160 bytes")
        let pseudorandom = HMACSHA256(key: salt).code(key)
        let expand = HMACSHA256(key: pseudorandom)
        var output: [UInt8] = []
        var previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < count {
            previous = expand.code(previous, info, [counter])
            output += previous
            counter &+= 1
        }
        return Array(output.prefix(count))
    }
}
