import HealthwheelCore
import Testing

/// The addresses a webhook may reach, as the server sees them after DNS: the text forms read back exactly, and
/// every block of the server's own network refused unless the operator allows it.
struct WebhookAddressPolicyTests {
    @Test(arguments: [
        ("8.8.8.8", "8.8.8.8"), ("255.255.255.255", "255.255.255.255"), ("::", "::"), ("::1", "::1"),
        ("2606:4700:4700::1111", "2606:4700:4700::1111"), ("2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("::ffff:10.0.0.1", "::ffff:a00:1"), ("fe80:0:0:0:0:0:0:1", "fe80::1"), ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
    ])
    func addressesReadAsWritten(text: String, canonical: String) throws {
        #expect(try #require(IPAddress(text)).description == canonical)
    }

    @Test(arguments: [
        "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "010.0.0.1", "1.2.3.-4", "0x7f.0.0.1", "2130706433", "1::2::3", ":::",
        "1:2:3:4:5:6:7:8:9", "12345::", "fe80::1%eth0", "::ffff:1.2.3", "g::1", "1.2.3.4::", "localhost",
    ])
    func malformedAddressesAreNotRead(text: String) {
        #expect(IPAddress(text) == nil)
    }

    @Test(arguments: [
        ("127.0.0.1", "a loopback address"), ("127.255.1.2", "a loopback address"), ("::1", "a loopback address"),
        ("10.1.2.3", "a private address"), ("172.16.0.1", "a private address"), ("172.31.255.255", "a private address"),
        ("192.168.1.1", "a private address"), ("fd12:3456::1", "a private address"),
        ("169.254.1.1", "a link-local address"), ("fe80::1", "a link-local address"),
        ("100.64.0.1", "a carrier-grade NAT address"), ("100.127.255.255", "a carrier-grade NAT address"),
        ("192.0.2.1", "a documentation address"), ("198.51.100.7", "a documentation address"),
        ("203.0.113.9", "a documentation address"), ("2001:db8::1", "a documentation address"),
        ("::ffff:8.8.8.8", "an IPv4-mapped address"), ("::ffff:127.0.0.1", "an IPv4-mapped address"),
        ("169.254.169.254", "the cloud metadata address"), ("fd00:ec2::254", "the cloud metadata address"),
        ("0.0.0.0", "a 'this network' address"), ("::", "the unspecified address"),
        ("224.0.0.1", "a multicast address"), ("ff02::1", "a multicast address"), ("255.255.255.255", "the broadcast address"),
        ("240.0.0.1", "a reserved address"), ("198.18.0.1", "a benchmarking address"), ("64:ff9b::a00:1", "a NAT64 address"),
        ("2002:7f00:1::", "a 6to4 address"), ("2001:0:4136:e378::1", "a Teredo address"),
    ])
    func theServersOwnNetworkIsRefused(text: String, reason: String) throws {
        #expect(WebhookAddressPolicy().refusal(of: try #require(IPAddress(text))) == reason)
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "2606:4700::1111"])
    func publicAddressesAreAllowed(text: String) throws {
        #expect(WebhookAddressPolicy().refusal(of: try #require(IPAddress(text))) == nil)
    }

    @Test func theOperatorsRangesAreAllowedAndNothingNextToThem() throws {
        let policy = WebhookAddressPolicy(allowed: [try #require(IPRange("127.0.0.1")), try #require(IPRange("10.20.0.0/16"))])
        #expect(policy.refusal(of: try #require(IPAddress("127.0.0.1"))) == nil)
        #expect(policy.refusal(of: try #require(IPAddress("127.0.0.2"))) == "a loopback address")
        #expect(policy.refusal(of: try #require(IPAddress("10.20.255.1"))) == nil)
        #expect(policy.refusal(of: try #require(IPAddress("10.21.0.1"))) == "a private address")
        // An IPv4 block says nothing of IPv6 addresses, the mapped form of its addresses included.
        #expect(policy.refusal(of: try #require(IPAddress("::ffff:127.0.0.1"))) == "an IPv4-mapped address")
    }

    @Test func rangesStartAtTheirFirstAddress() throws {
        #expect(try #require(IPRange("10.1.2.3/8")).description == "10.0.0.0/8")
        #expect(try #require(IPRange("fe80::1234/10")).description == "fe80::/10")
        #expect(try #require(IPRange("192.0.2.77")).description == "192.0.2.77/32")
        #expect(IPRange("10.0.0.0/33") == nil)
        #expect(IPRange("10.0.0.0/") == nil)
        #expect(IPRange("::/129") == nil)
        #expect(IPRange("10.0.0.0/8/8") == nil)
    }
}

struct WebhookRetryPolicyTests {
    @Test func theScheduleRunsFromFiveSecondsToADayWithinATenth() {
        let policy = WebhookRetryPolicy()
        let hours = 3_600.0
        let scheduled: [Double] = [5, 300, 1_800, 2 * hours, 5 * hours, 10 * hours, 14 * hours, 20 * hours, 24 * hours]
        for (index, wait) in scheduled.enumerated() {
            #expect(policy.wait(afterFailedAttempts: index + 1, spread: 0) == wait * 0.9)
            #expect(policy.wait(afterFailedAttempts: index + 1, spread: 0.5) == wait)
            #expect(policy.wait(afterFailedAttempts: index + 1, spread: 1) == wait * 1.1)
        }
        #expect(policy.maxAttempts == 10)
        #expect(policy.wait(afterFailedAttempts: 10, spread: 0.5) == nil)
        #expect(policy.wait(afterFailedAttempts: 0, spread: 0.5) == nil)
    }

    @Test func aLongerRetryAfterIsHonouredUpToADay() {
        let policy = WebhookRetryPolicy()
        #expect(policy.wait(afterFailedAttempts: 1, spread: 0.5, retryAfter: 60) == 60)
        #expect(policy.wait(afterFailedAttempts: 3, spread: 0.5, retryAfter: 60) == 1_800)
        #expect(policy.wait(afterFailedAttempts: 1, spread: 0.5, retryAfter: 10 * 86_400) == 86_400)
    }
}
