import CCurl
import CCurlShim
import Foundation

/// Where and how to deliver mail: `smtp://host:port` (upgraded with STARTTLS) or `smtps://host:port` (TLS from
/// the start), with optional credentials.
public struct SMTPSettings: Sendable {
    /// Whether an `smtp://` conversation must be upgraded to TLS before anything is sent.
    public enum StartTLS: String, Sendable {
        /// A server that offers no STARTTLS (or a network that strips the offer) gets nothing: no login, no
        /// message. The default: reports are health data.
        case required
        /// Upgraded when offered, sent in clear otherwise: for a relay on the same machine.
        case optional
    }

    /// `smtp://host:587` (STARTTLS) or `smtps://host:465`; other schemes are refused by libcurl.
    public var url: String
    /// For `smtp://`: whether TLS is required (`smtps://` is always encrypted).
    public var startTLS: StartTLS = .required
    /// The login name for SMTP AUTH; nil sends without logging in.
    public var user: String?
    /// Never logged, never in an error.
    public var password: String?
    /// Envelope sender (`MAIL FROM`), and the address in the `From` header.
    public var from: String
    /// Seconds to wait for the connection (TLS included) before the attempt counts as a temporary failure.
    public var connectTimeout: Int = 15
    /// The whole conversation, message included.
    public var timeout: Int = 120

    /// Settings with the default timeouts: 15 s to connect, 120 s for the whole conversation.
    public init(url: String, user: String? = nil, password: String? = nil, from: String) {
        self.url = url
        self.user = user
        self.password = password
        self.from = from
    }
}

extension SMTPSettings: CustomStringConvertible {
    /// The server and who logs in, never the password (nor credentials written into the URL): safe to log.
    public var description: String {
        let url = URL(string: self.url)
        let port = url?.port.map { ":\($0)" } ?? ""
        let login = user.map { " as \($0)" } ?? ""
        let scheme = url?.scheme ?? "smtp"
        let tls = scheme == "smtp" && startTLS == .optional ? " (STARTTLS optional)" : ""
        return "\(scheme)://\(url?.host ?? "?")\(port)\(login), from \(from)\(tls)"
    }
}

/// Why a message was not delivered: worth trying again later (a 4xx reply, a refused or dropped connection, a
/// timeout), or not (a 5xx reply).
public enum DeliveryFailure: Error, Equatable, Sendable {
    case temporary(String)
    case permanent(String)

    /// The reply or libcurl's explanation (`SMTP 550: …`), as stored in the delivery's `lastError`.
    public var message: String {
        switch self {
        case .temporary(let text), .permanent(let text): text
        }
    }
}

/// SMTP deliveries through libcurl over one connection, kept open between messages: the next message goes out
/// on it with `MAIL FROM` at once, without a new TCP and TLS handshake, greeting and login. `send` blocks for
/// the conversation: call it from a thread that may wait, never from Swift concurrency's pool, and from one
/// thread at a time (the sender gives each connection a thread of its own).
public final class SMTPClient: @unchecked Sendable {
    /// The server, login and sender it delivers with.
    public let settings: SMTPSettings
    /// libcurl's handle; it holds the open connection between messages. Only `send` touches it, one call at a time.
    private let handle: UnsafeMutableRawPointer?

    /// A client for `settings`; the first one also runs libcurl's global set-up for the process.
    public init(settings: SMTPSettings) {
        self.settings = settings
        _ = Self.initialised
        handle = curl_easy_init()
    }

    deinit { curl_easy_cleanup(handle) }

    /// libcurl's global set-up, once per process, before any thread uses it.
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// A connection idle longer than this is not used again (servers drop idle ones after a few minutes; a
    /// fresh one costs less than a failed attempt).
    static let idleReuseSeconds = 30

    /// Delivers `message` (already encoded, CRLF line ends) to `recipients`, blocking until the server accepts it.
    /// `beforeData` runs once, when the server has said go ahead with the message (its reply to DATA) and before
    /// the first byte of it is sent. Throws `permanent` for a 5xx reply, `temporary` for anything else that failed.
    public func send(_ message: [UInt8], to recipients: [String], beforeData: () -> Void = {}) throws(DeliveryFailure) {
        guard let handle else { throw .temporary("could not start libcurl") }
        try withoutActuallyEscaping(beforeData) { beforeData throws(DeliveryFailure) in
            try send(message, to: recipients, handle: handle, beforeData: beforeData)
        }
    }

    private func send(
        _ message: [UInt8],
        to recipients: [String],
        handle: UnsafeMutableRawPointer,
        beforeData: @escaping () -> Void
    ) throws(DeliveryFailure) {
        let body = MessageReader(message, beforeData: beforeData)
        let context = Unmanaged.passRetained(body)
        defer { context.release() }
        var list: UnsafeMutablePointer<curl_slist>?
        for recipient in recipients { list = curl_slist_append(list, "<\(recipient)>") }
        defer { curl_slist_free_all(list) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            // A reset clears the last message's options, not the open connection.
            curl_easy_reset(handle)
            var setup = CURLE_OK
            func set(_ result: CURLcode) { if setup == CURLE_OK { setup = result } }
            set(ccurl_setopt_string(handle, CURLOPT_URL, settings.url))
            set(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"))
            let tls = settings.startTLS == .required ? CURLUSESSL_ALL : CURLUSESSL_TRY
            set(ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(tls.rawValue)))
            set(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
            set(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, settings.connectTimeout))
            set(ccurl_setopt_long(handle, CURLOPT_TIMEOUT, settings.timeout))
            set(ccurl_setopt_long(handle, CURLOPT_MAXAGE_CONN, Self.idleReuseSeconds))
            set(ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(settings.from)>"))
            set(ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list))
            if let user = settings.user { set(ccurl_setopt_string(handle, CURLOPT_USERNAME, user)) }
            if let password = settings.password { set(ccurl_setopt_string(handle, CURLOPT_PASSWORD, password)) }
            set(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1))
            set(ccurl_setopt_readfunction(handle, readMessage))
            set(ccurl_setopt_pointer(handle, CURLOPT_READDATA, context.toOpaque()))
            set(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress))
            guard setup == CURLE_OK else { return setup }
            return curl_easy_perform(handle)
        }
        guard code != CURLE_OK else { return }
        var reply = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let explained = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let detail = explained.isEmpty ? String(cString: curl_easy_strerror(code)) : explained
        let text = reply > 0 ? "SMTP \(reply): \(detail)" : detail
        // A 5xx reply is final; every other failure (4xx, no connection, a timeout, TLS trouble) may pass.
        throw (500...599).contains(reply) ? .permanent(text) : .temporary(text)
    }
}

/// The message curl reads, a piece at a time.
private final class MessageReader {
    let bytes: [UInt8]
    var offset = 0
    /// Called before the first piece is read: curl reads the message only once the server accepted DATA.
    var beforeData: (() -> Void)?

    init(_ bytes: [UInt8], beforeData: @escaping () -> Void) {
        self.bytes = bytes
        self.beforeData = beforeData
    }
}

/// curl's read callback: copies the next piece of the message into curl's buffer; 0 ends the message.
private func readMessage(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    let reader = Unmanaged<MessageReader>.fromOpaque(context).takeUnretainedValue()
    if let beforeData = reader.beforeData {
        reader.beforeData = nil
        beforeData()
    }
    let length = min(size * count, reader.bytes.count - reader.offset)
    guard length > 0 else { return 0 }
    reader.bytes.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + reader.offset, byteCount: length)
    }
    reader.offset += length
    return length
}
