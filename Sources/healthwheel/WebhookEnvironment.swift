import ArgumentParser
import HealthwheelCore
import Services
import Webhooks

/// Where webhooks may be delivered, from the environment: `HEALTHWHEEL_WEBHOOK_ALLOW` (address ranges of the
/// operator's own network that endpoints may reach after all, comma-separated CIDR blocks such as
/// `10.20.0.0/16, fd12::/48`; by default no loopback, private, link-local or other special address is reached),
/// `HEALTHWHEEL_WEBHOOK_CA_FILE` (a PEM bundle trusted instead of the system's certificates) and
/// `HEALTHWHEEL_WEBHOOK_CONNECTIONS` (deliveries sent at once, 8 by default).
enum WebhookEnvironment {
    static func settings() throws -> WebhookSettings {
        var settings = WebhookSettings()
        if let text = Environment.value("HEALTHWHEEL_WEBHOOK_ALLOW") {
            var allowed: [IPRange] = []
            for part in text.split(separator: ",") {
                let block = part.trimmingCharacters(in: .whitespaces)
                guard let range = IPRange(block) else {
                    throw ValidationError("HEALTHWHEEL_WEBHOOK_ALLOW: \(block) is not an address range such as 10.20.0.0/16 or fd12::/48")
                }
                allowed.append(range)
            }
            settings.poster.policy = WebhookAddressPolicy(allowed: allowed)
        }
        settings.poster.caFile = Environment.value("HEALTHWHEEL_WEBHOOK_CA_FILE")
        if let text = Environment.value("HEALTHWHEEL_WEBHOOK_CONNECTIONS") {
            guard let lanes = Int(text), (1...64).contains(lanes) else {
                throw ValidationError("HEALTHWHEEL_WEBHOOK_CONNECTIONS must be a whole number from 1 to 64")
            }
            settings.lanes = lanes
        }
        return settings
    }

    /// The line `serve` logs about webhooks at start-up.
    static func describe(_ settings: WebhookSettings) -> String {
        let allowed = settings.poster.policy.allowed
        return "webhooks: \(settings.lanes) at once; the server's own network refused"
            + (allowed.isEmpty ? "" : " except \(allowed.map(\.description).joined(separator: ", "))")
    }
}
