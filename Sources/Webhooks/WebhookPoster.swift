import CCurl
import CCurlShim
import Foundation
import HealthwheelCore

/// How webhook deliveries leave the server.
public struct WebhookPosterSettings: Sendable {
    /// Which addresses a delivery may reach (the operator may allow ranges of their own network).
    public var policy: WebhookAddressPolicy
    /// Seconds the whole request may take, connection and TLS included.
    public var timeout = 15
    /// A PEM bundle trusted instead of the system's certificates: an operator's private CA (and the tests' own).
    public var caFile: String?
    /// How a name becomes addresses when given: a test's names (one pointing at each kind of refused address, or
    /// somewhere the system's resolver would not send it). Nil: the system's resolver (getaddrinfo).
    public var resolve: (@Sendable (_ host: String, _ port: Int) -> [IPAddress])?

    public init(policy: WebhookAddressPolicy = WebhookAddressPolicy(), caFile: String? = nil) {
        self.policy = policy
        self.caFile = caFile
    }
}

/// What became of one delivery attempt.
public enum WebhookPostOutcome: Sendable, Equatable {
    /// Answered 2xx.
    case delivered(status: Int)
    /// Not sent, and never will be to this URL as it stands: not `https`, or an address the policy refuses.
    case refused(String)
    /// Sent and answered otherwise (`status`), or not answered (nil: no connection, TLS, a timeout). A redirect is
    /// a failure too: it is not followed. `retryAfter` is the receiver's `Retry-After`, in seconds.
    case failed(status: Int?, retryAfter: TimeInterval?, message: String)
}

/// Posts webhook deliveries over HTTPS through libcurl, out of reach of the server's own network: the URL's
/// name is resolved here, every address it resolves to is checked against the policy, and the connection is
/// pinned to the checked addresses (`CURLOPT_RESOLVE`), so a name that answers differently a moment later (DNS
/// rebinding) cannot move the request. Redirects are not followed, proxies from the environment are not used,
/// and an answer's body is read up to 64 KiB. `post` blocks for the request: call it from a thread that may wait,
/// never from Swift concurrency's pool.
public struct WebhookPoster: Sendable {
    public let settings: WebhookPosterSettings

    public init(settings: WebhookPosterSettings) {
        self.settings = settings
        _ = Self.initialised
    }

    /// libcurl's global set-up, once per process, before any thread uses it.
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// The most of an answer's body that is read; a larger answer ends the transfer (its status counts).
    static let maxAnswerBytes = 64 << 10

    /// Posts `body` (JSON) to `url` with `headers`.
    public func post(_ body: [UInt8], to url: String, headers: [(name: String, value: String)]) -> WebhookPostOutcome {
        let target: Target
        switch Self.target(of: url) {
        case .success(let parsed): target = parsed
        case .failure(let refusal): return .refused(refusal.message)
        }
        let literal = IPAddress(target.host)
        let addresses: [IPAddress]
        if let literal {
            addresses = [literal]
        } else {
            addresses = settings.resolve?(target.host, target.port) ?? Self.systemResolve(target.host, port: target.port)
            guard !addresses.isEmpty else { return .failed(status: nil, retryAfter: nil, message: "\(target.host) does not resolve") }
        }
        for address in addresses {
            if let reason = settings.policy.refusal(of: address) {
                return .refused("\(target.host) resolves to \(address), \(reason)")
            }
        }
        return send(body, to: url, target: target, pinnedTo: literal == nil ? addresses : [], headers: headers)
    }

    /// Why `url` can never be delivered to, or nil when it may be: an `https` URL of at most 2,000 characters,
    /// without credentials or a fragment, whose host, when an address, is one the policy allows. A name is
    /// checked when a delivery resolves it.
    public func refusal(ofURL url: String) -> String? {
        guard url.utf8.count <= WebhookEndpoint.maxURLLength else { return "must be at most \(WebhookEndpoint.maxURLLength) characters" }
        let target: Target
        switch Self.target(of: url) {
        case .success(let parsed): target = parsed
        case .failure(let refusal): return refusal.message
        }
        if URL(string: url)?.fragment != nil { return "must not have a fragment" }
        if let address = IPAddress(target.host), let reason = settings.policy.refusal(of: address) { return "is \(address), \(reason)" }
        return nil
    }

    struct Target {
        var host: String
        var port: Int
    }

    struct Refusal: Error {
        var message: String
    }

    /// The URL's host and port: `https` only, no credentials in it.
    static func target(of url: String) -> Result<Target, Refusal> {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return .failure(Refusal(message: "is not a URL"))
        }
        guard scheme == "https" else { return .failure(Refusal(message: "must be an https URL")) }
        guard parsed.user == nil, parsed.password == nil else { return .failure(Refusal(message: "must not hold credentials")) }
        guard var host = parsed.host, !host.isEmpty else { return .failure(Refusal(message: "has no host")) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return .success(Target(host: host.lowercased(), port: parsed.port ?? 443))
    }

    /// Every address `host` resolves to (getaddrinfo, both families), in the resolver's order.
    public static func systemResolve(_ host: String, port: Int) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry?.pointee {
            if let address = current.ai_addr, let read = Self.address(of: address), !addresses.contains(read) { addresses.append(read) }
            entry = current.ai_next
        }
        return addresses
    }

    private static func address(of socketAddress: UnsafePointer<sockaddr>) -> IPAddress? {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin_addr) { IPAddress(bytes: Array($0)) }
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) { IPAddress(bytes: Array($0)) }
            }
        default:
            return nil
        }
    }

    private func send(
        _ body: [UInt8],
        to url: String,
        target: Target,
        pinnedTo addresses: [IPAddress],
        headers: [(name: String, value: String)]
    ) -> WebhookPostOutcome {
        guard let handle = curl_easy_init() else { return .failed(status: nil, retryAfter: nil, message: "could not start libcurl") }
        defer { curl_easy_cleanup(handle) }
        let answer = Answer()
        let context = Unmanaged.passRetained(answer)
        defer { context.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in headers { headerList = curl_slist_append(headerList, "\(header.name): \(header.value)") }
        // libcurl adds `Expect: 100-continue` to larger bodies: one round trip more for nothing here.
        headerList = curl_slist_append(headerList, "Expect:")
        defer { curl_slist_free_all(headerList) }
        var pins: UnsafeMutablePointer<curl_slist>?
        if !addresses.isEmpty {
            // Every checked address, and no other: libcurl tries them in turn (IPv6 and IPv4 alike).
            let list = addresses.map { $0.isIPv4 ? "\($0)" : "[\($0)]" }.joined(separator: ",")
            pins = curl_slist_append(pins, "\(target.host):\(target.port):\(list)")
        }
        defer { curl_slist_free_all(pins) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let code: CURLcode = body.withUnsafeBufferPointer { bodyBytes in
            errorBuffer.withUnsafeMutableBufferPointer { buffer in
                var setup = CURLE_OK
                func set(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
                set(ccurl_setopt_string(handle, CURLOPT_URL, url))
                set(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"))
                set(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
                // Not the environment's proxy: a proxy would connect wherever the name leads, past the check.
                set(ccurl_setopt_string(handle, CURLOPT_PROXY, ""))
                set(ccurl_setopt_string(handle, CURLOPT_NOPROXY, "*"))
                if pins != nil { set(ccurl_setopt_slist(handle, CURLOPT_RESOLVE, pins)) }
                if let caFile = settings.caFile { set(ccurl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
                set(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
                set(ccurl_setopt_long(handle, CURLOPT_TIMEOUT, settings.timeout))
                set(ccurl_setopt_long(handle, CURLOPT_POST, 1))
                set(ccurl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress)))
                set(ccurl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                set(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList))
                set(ccurl_setopt_string(handle, CURLOPT_USERAGENT, "Healthwheel-Webhooks/1"))
                set(ccurl_setopt_writefunction(handle, CURLOPT_WRITEFUNCTION, readAnswerBody))
                set(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()))
                set(ccurl_setopt_writefunction(handle, CURLOPT_HEADERFUNCTION, readAnswerHeader))
                set(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque()))
                set(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress))
                guard setup == CURLE_OK else { return setup }
                return curl_easy_perform(handle)
            }
        }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if status > 0, code == CURLE_OK || (code == CURLE_WRITE_ERROR && answer.bodyBytes > Self.maxAnswerBytes) {
            if (200...299).contains(status) { return .delivered(status: status) }
            let message = (300...399).contains(status) ? "answered \(status): redirects are not followed" : "answered \(status)"
            return .failed(status: status, retryAfter: answer.retryAfter, message: message)
        }
        let explained = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .failed(status: nil, retryAfter: nil, message: explained.isEmpty ? String(cString: curl_easy_strerror(code)) : explained)
    }

    /// A `Retry-After` value: seconds, or an HTTP date (then the seconds until it from `now`); nil for anything else.
    static func retryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: text).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// What an answer said, as libcurl hands it over.
private final class Answer {
    var bodyBytes = 0
    var retryAfter: TimeInterval?
}

/// libcurl's body callback: the body is counted, not kept; past `maxAnswerBytes` the transfer ends.
private func readAnswerBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let answer = Unmanaged<Answer>.fromOpaque(context).takeUnretainedValue()
    answer.bodyBytes += size * count
    return answer.bodyBytes > WebhookPoster.maxAnswerBytes ? 0 : size * count
}

/// libcurl's header callback, one header line at a time: `Retry-After` is kept.
private func readAnswerHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
    let answer = Unmanaged<Answer>.fromOpaque(context).takeUnretainedValue()
    if let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "retry-after" {
        answer.retryAfter = WebhookPoster.retryAfter(String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespacesAndNewlines))
    }
    return size * count
}
