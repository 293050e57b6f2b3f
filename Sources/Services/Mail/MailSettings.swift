import Foundation
import HealthwheelCore
import Mail
import Reports

/// How the server sends email: through an SMTP server, or (the embedded default, for development and offline
/// use) by writing each message into a folder as `<deliveryId>.eml` and counting it sent.
public struct MailSettings: Sendable {
    /// An SMTP server (production), or a folder of `.eml` files (development, offline).
    public enum Route: Sendable {
        case smtp(SMTPSettings)
        /// `DATA_DIR/outbox`: messages lie there unencrypted, for a developer to open.
        case folder(URL)
    }

    /// Where messages go; `serve` picks it from its configuration.
    public var route: Route
    /// The address in `From` (with the company's name) and the SMTP envelope sender.
    public var from: String
    /// Emails a company may send in any 24 hours.
    public var dailyLimit = 200
    /// How often the sender looks for due mail besides being woken by a new one.
    public var tick: Duration = .seconds(1)
    /// How many messages are sent at once, each over a connection (and a thread) of its own that stays open
    /// for the next message: a slow server is waited on in parallel, a fast one is not greeted per message.
    public var connections = 8
    /// The allowed values of `connections`.
    public static let connectionRange = 1...16
    /// Seconds a node's claim on a delivery lasts unless renewed (`DeliveryRetryPolicy.claimLease`, one minute).
    public var claimLease = DeliveryRetryPolicy().claimLease
    /// The allowed values of `claimLease`, in seconds.
    public static let claimLeaseRange = 5...3600

    /// Settings with the default allowance (200 emails a company a day) and a 1-second tick.
    public init(route: Route, from: String) {
        self.route = route
        self.from = from
    }

    /// Removes what the folder route wrote for `deliveries` (an erased client's): their `.eml` files lie in the
    /// data folder. Mail an SMTP server took has left the server; nothing is done for it. Blocks on the disk.
    func removeDelivered(_ deliveries: [UUID]) throws {
        guard case .folder(let url) = route else { return }
        for id in deliveries {
            for name in ["\(id.lowercaseHyphenated).eml", ".\(id.lowercaseHyphenated).eml.partial"] {
                let file = url.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
            }
        }
    }

    /// A new transport for this route: one per connection, used by one thread at a time.
    func makeTransport() -> any MailTransport {
        switch route {
        case .smtp(let settings): SMTPClient(settings: settings)
        case .folder(let url): OutboxFolder(url: url)
        }
    }
}

/// Delivers one message. Blocks until done: the sender calls it on a thread of the transport's own, one message
/// at a time.
public protocol MailTransport: Sendable {
    /// Delivers `message`; calls `handingOver` once, just before the message itself leaves (SMTP DATA), so that
    /// a stop after it is known to have perhaps delivered it.
    func deliver(_ message: [UInt8], id: UUID, to recipients: [String], handingOver: () -> Void) throws(DeliveryFailure)
}

extension SMTPClient: MailTransport {
    /// Sends the message with its envelope recipients; `id` is not needed by SMTP (it names the folder route's file).
    public func deliver(_ message: [UInt8], id: UUID, to recipients: [String], handingOver: () -> Void) throws(DeliveryFailure) {
        try send(message, to: recipients, beforeData: handingOver)
    }
}

/// Writes each message as `<id>.eml` (owner-only permissions, written whole then renamed into place).
struct OutboxFolder: MailTransport {
    let url: URL

    func deliver(_ message: [UInt8], id: UUID, to recipients: [String], handingOver: () -> Void) throws(DeliveryFailure) {
        let file = url.appendingPathComponent("\(id.lowercaseHyphenated).eml")
        handingOver()
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let partial = url.appendingPathComponent(".\(id.lowercaseHyphenated).eml.partial")
            guard FileManager.default.createFile(atPath: partial.path, contents: Data(message), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
            }
            guard rename(partial.path, file.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            throw .temporary("could not write \(file.path): \(error.localizedDescription)")
        }
    }
}
