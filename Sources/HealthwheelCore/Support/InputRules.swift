/// Normalisation and validation of the free-text fields people type. Normalising trims surrounding white space
/// only; anything else that is wrong is rejected, never silently cut or changed.
public enum InputRules {
    /// In characters as sent (`String.schemaLength`): names of clients, trainers and companies.
    public static let maxNameLength = 200
    /// In characters as sent: the longest address SMTP can carry (RFC 5321's path limit less its brackets).
    public static let maxEmailLength = 254
    /// In characters: at least 12 (NIST SP 800-63B asks for 8), and room for any passphrase up to 256.
    public static let passwordLength = 12...256

    /// A display name: 1...200 characters after trimming, no control characters.
    public static func name(_ raw: String, field: String = "name") throws(ValidationError) -> String {
        let value = raw.trimmingWhiteSpace()
        if value.isEmpty { throw ValidationError(field, "must not be empty") }
        if raw.schemaLength > maxNameLength { throw ValidationError(field, "must be at most \(maxNameLength) characters") }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ValidationError(field, "must not contain control characters")
        }
        return value
    }

    /// A role by its name.
    public static func role(_ raw: String, field: String = "role") throws(ValidationError) -> Role {
        guard let role = Role(rawValue: raw) else {
            throw ValidationError(field, "must be one of: \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return role
    }

    /// An email address, lower-cased so that uniqueness and login ignore case.
    /// The check is deliberately plain (one `@`, a dotted domain, no spaces): deliverability is proven by use.
    public static func email(_ raw: String, field: String = "email") throws(ValidationError) -> String {
        let value = raw.trimmingWhiteSpace().lowercased()
        if raw.schemaLength > maxEmailLength { throw ValidationError(field, "must be at most \(maxEmailLength) characters") }
        // Code points, not characters: "@" followed by a combining mark or an emoji modifier is one character,
        // yet it is still the "@" the document's pattern (and every mail server) sees.
        let parts = value.unicodeScalars.split(separator: "@", omittingEmptySubsequences: false)
        let wellFormed =
            parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && parts[1].first != "." && parts[1].last != "."
            && !value.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
        if !wellFormed { throw ValidationError(field, "is not a valid email address") }
        return value
    }

    /// A phone number as people write it: digits with spaces, dashes, dots, parentheses and a leading `+`.
    public static func phone(_ raw: String, field: String = "phone") throws(ValidationError) -> String {
        let value = raw.trimmingWhiteSpace()
        let allowed = Set("0123456789 -.()+".unicodeScalars)
        let digits = value.unicodeScalars.filter { ("0"..."9").contains($0) }.count
        guard value.unicodeScalars.allSatisfy({ allowed.contains($0) }), (3...20).contains(digits), value.count <= 40 else {
            throw ValidationError(field, "must be a phone number (digits, spaces, + - . ( ))")
        }
        return value
    }

    /// A new password. Length is the only rule (NIST SP 800-63B): composition rules make passwords worse.
    public static func newPassword(_ value: String, field: String = "password") throws(ValidationError) {
        if !passwordLength.contains(value.schemaLength) {
            throw ValidationError(field, "must be \(passwordLength.lowerBound) to \(passwordLength.upperBound) characters")
        }
    }
}

extension String {
    /// A length as JSON Schema's `maxLength` counts it (Unicode code points, as sent), so that every limit the
    /// OpenAPI document states is the very limit the server applies: "é" written as e + accent is 2, "👍🏽" is 2.
    public var schemaLength: Int { unicodeScalars.count }

    func trimmingWhiteSpace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
