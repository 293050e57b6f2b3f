/// Which addresses a webhook may be delivered to, checked on every address a name resolves to, just before the
/// connection that is then pinned to it (so a name cannot resolve to a public address for the check and a
/// private one for the request). The server's own network is refused: loopback, private and link-local blocks,
/// carrier-grade NAT, documentation and benchmarking blocks, multicast, reserved and unspecified addresses, IPv6
/// forms that carry an IPv4 address inside (IPv4-mapped, NAT64, 6to4, Teredo: what they reach is not what they
/// say), and the cloud metadata addresses. `allowed` (the operator's configuration) takes precedence, for a
/// receiver on the operator's own network.
public struct WebhookAddressPolicy: Sendable {
    /// Blocks the operator allows although they are refused by default.
    public var allowed: [IPRange]

    public init(allowed: [IPRange] = []) {
        self.allowed = allowed
    }

    /// The refused blocks, each with the words a refusal names it by.
    public static let refused: [(range: IPRange, reason: String)] = [
        ("0.0.0.0/8", "a 'this network' address"),
        ("10.0.0.0/8", "a private address"),
        ("100.64.0.0/10", "a carrier-grade NAT address"),
        ("127.0.0.0/8", "a loopback address"),
        ("169.254.169.254/32", "the cloud metadata address"),
        ("169.254.0.0/16", "a link-local address"),
        ("172.16.0.0/12", "a private address"),
        ("192.0.0.0/24", "an IETF protocol address"),
        ("192.0.2.0/24", "a documentation address"),
        ("192.88.99.0/24", "a 6to4 relay address"),
        ("192.168.0.0/16", "a private address"),
        ("198.18.0.0/15", "a benchmarking address"),
        ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"),
        ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved address"),
        ("::/128", "the unspecified address"),
        ("::1/128", "a loopback address"),
        ("::ffff:0:0/96", "an IPv4-mapped address"),
        ("::/96", "an IPv4-compatible address"),
        ("64:ff9b::/96", "a NAT64 address"),
        ("64:ff9b:1::/48", "a NAT64 address"),
        ("100::/64", "a discard address"),
        ("2001::/32", "a Teredo address"),
        ("2001:2::/48", "a benchmarking address"),
        ("2001:db8::/32", "a documentation address"),
        ("2002::/16", "a 6to4 address"),
        ("3fff::/20", "a documentation address"),
        ("fd00:ec2::254/128", "the cloud metadata address"),
        ("fc00::/7", "a private address"),
        ("fe80::/10", "a link-local address"),
        ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
    ].map { (IPRange($0.0)!, $0.1) }

    /// Why a delivery may not go to `address` ("a private address"), or nil when it may.
    public func refusal(of address: IPAddress) -> String? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        if address.bytes == [255, 255, 255, 255] { return "the broadcast address" }
        return Self.refused.first { $0.range.contains(address) }?.reason
    }
}
