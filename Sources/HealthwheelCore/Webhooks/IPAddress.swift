import Foundation

/// An IPv4 or IPv6 address as its bytes (4 or 16), read from the text `getaddrinfo` or an operator writes. Only
/// the plain forms are read: IPv4 as four decimal parts without leading zeros (so `010.0.0.1` is not taken for
/// the octal `8.0.0.1` some resolvers would make of it), IPv6 as RFC 4291 writes it, a dotted IPv4 tail and `::`
/// included, with no zone (`%eth0`).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    public var isIPv4: Bool { bytes.count == 4 }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    public init?(_ text: some StringProtocol) {
        if let bytes = Self.ipv4(Substring(text)) {
            self.bytes = bytes
        } else if let bytes = Self.ipv6(Substring(text)) {
            self.bytes = bytes
        } else {
            return nil
        }
    }

    /// IPv4 dotted; IPv6 as hexadecimal groups, the longest run of zero groups (two or more) as `::`.
    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 16, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }

    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                part == "0" || part.first != "0", let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func ipv6(_ text: Substring) -> [UInt8]? {
        guard text.count <= 45, text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, last: Bool) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if last, index == fields.count - 1, field.contains(".") {
                    guard let tail = ipv4(field) else { return nil }
                    bytes += tail
                } else {
                    guard (1...4).contains(field.count), let value = UInt16(field, radix: 16) else { return nil }
                    bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                }
            }
            return bytes
        }
        if halves.count == 1 {
            guard let bytes = groups(halves[0], last: true), bytes.count == 16 else { return nil }
            return bytes
        }
        guard let head = groups(halves[0], last: false), let tail = groups(halves[1], last: true), head.count + tail.count <= 14 else {
            return nil
        }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}

/// A block of addresses in CIDR form (`10.0.0.0/8`, `fc00::/7`); a bare address is a block of one.
public struct IPRange: Hashable, Sendable, CustomStringConvertible {
    public let first: IPAddress
    public let prefixLength: Int

    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(parts[0]) else { return nil }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(parts[1]), value <= bits
            else { return nil }
            length = value
        }
        // The block's first address: bits past the prefix are cleared, as `10.1.2.3/8` means 10.0.0.0/8.
        let masked = address.bytes.enumerated().map { index, byte in
            let kept = min(max(length - index * 8, 0), 8)
            return kept == 0 ? 0 : byte & ~UInt8(0xFF >> kept)
        }
        first = IPAddress(bytes: masked)!
        prefixLength = length
    }

    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == first.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(first.bytes, address.bytes) where remaining > 0 {
            let kept = min(remaining, 8)
            let mask = ~UInt8(0xFF >> kept)
            if mine & mask != theirs & mask { return false }
            remaining -= kept
        }
        return true
    }

    public var description: String { "\(first)/\(prefixLength)" }
}
