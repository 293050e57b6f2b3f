import Foundation
import Mail
import Reports
import Services
import Store
import StoreContract

/// How the server sends email, from the environment: `HEALTHWHEEL_SMTP_URL` (`smtp://host:port`, upgraded with
/// STARTTLS, or `smtps://host:port`), `HEALTHWHEEL_SMTP_STARTTLS` (`required`, the default unless the host is
/// this machine; `optional`, the default for a loopback relay), `HEALTHWHEEL_SMTP_USER`,
/// `HEALTHWHEEL_SMTP_PASSWORD`, `HEALTHWHEEL_SMTP_FROM`, `HEALTHWHEEL_SMTP_CONNECTIONS` (messages sent at once,
/// 8 by default), `HEALTHWHEEL_MAIL_DAILY_LIMIT` and `HEALTHWHEEL_MAIL_LEASE` (seconds a claim on a delivery
/// lasts). Without a URL, messages are written to `DATA_DIR/outbox/<deliveryId>.eml`, so a development server
/// works offline.
enum MailEnvironment {
    static let defaultFrom = "reports@healthwheel.invalid"

    static func settings(data directory: DataDirectory) throws -> MailSettings {
        let from = Environment.value("HEALTHWHEEL_SMTP_FROM")
        if let from, !from.contains("@") || from.contains(where: { $0 == "<" || $0 == ">" || $0.isWhitespace }) {
            throw MailConfigurationError("HEALTHWHEEL_SMTP_FROM must be a plain email address")
        }
        var settings: MailSettings
        if let url = Environment.value("HEALTHWHEEL_SMTP_URL") {
            guard let parsed = URL(string: url), ["smtp", "smtps"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
                throw MailConfigurationError("HEALTHWHEEL_SMTP_URL must be smtp://host:port or smtps://host:port")
            }
            guard let from else { throw MailConfigurationError("HEALTHWHEEL_SMTP_FROM is required with HEALTHWHEEL_SMTP_URL") }
            var smtp = SMTPSettings(
                url: url,
                user: Environment.value("HEALTHWHEEL_SMTP_USER"),
                password: Environment.value("HEALTHWHEEL_SMTP_PASSWORD"),
                from: from
            )
            smtp.startTLS = try startTLS(host: parsed.host ?? "")
            settings = MailSettings(route: .smtp(smtp), from: from)
        } else {
            settings = MailSettings(route: .folder(directory.url.appendingPathComponent("outbox")), from: from ?? defaultFrom)
        }
        if let connections = Environment.value("HEALTHWHEEL_SMTP_CONNECTIONS") {
            guard let value = Int(connections), MailSettings.connectionRange.contains(value) else {
                let range = MailSettings.connectionRange
                throw MailConfigurationError("HEALTHWHEEL_SMTP_CONNECTIONS must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            settings.connections = value
        }
        if let lease = Environment.value("HEALTHWHEEL_MAIL_LEASE") {
            guard let value = Int(lease), MailSettings.claimLeaseRange.contains(value) else {
                let range = MailSettings.claimLeaseRange
                throw MailConfigurationError("HEALTHWHEEL_MAIL_LEASE must be whole seconds from \(range.lowerBound) to \(range.upperBound)")
            }
            settings.claimLease = TimeInterval(value)
        }
        if let limit = Environment.value("HEALTHWHEEL_MAIL_DAILY_LIMIT") {
            guard let value = Int(limit), value >= 0 else { throw MailConfigurationError("HEALTHWHEEL_MAIL_DAILY_LIMIT must be a whole number") }
            settings.dailyLimit = value
        }
        return settings
    }

    /// `HEALTHWHEEL_SMTP_STARTTLS`, else required for any host but this machine, whose traffic never leaves it.
    static func startTLS(host: String) throws -> SMTPSettings.StartTLS {
        if let value = Environment.value("HEALTHWHEEL_SMTP_STARTTLS") {
            guard let startTLS = SMTPSettings.StartTLS(rawValue: value) else {
                throw MailConfigurationError("HEALTHWHEEL_SMTP_STARTTLS must be required or optional")
            }
            return startTLS
        }
        let loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
        return loopback ? .optional : .required
    }

    /// Where mail goes, for the start-up log: the server and port, never credentials.
    static func describe(_ settings: MailSettings) -> String {
        switch settings.route {
        case .smtp(let smtp):
            return "email via \(smtp)"
        case .folder(let folder):
            return "email written to \(folder.path)/<deliveryId>.eml (no HEALTHWHEEL_SMTP_URL set)"
        }
    }
}

/// A mail setting in the environment that cannot work: start-up stops naming it.
struct MailConfigurationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
