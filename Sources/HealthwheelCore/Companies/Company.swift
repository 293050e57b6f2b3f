import Foundation

/// A business that employs trainers. Every other record belongs to exactly one company.
public struct Company: Codable, Sendable, Equatable {
    /// Random; every record of the company carries it, and every read is scoped by it.
    public var id: UUID
    /// Trimmed, 1–200 characters, no control characters: shown on reports and as the sender's name of report emails.
    public var name: String
    /// When the operator (or the demo at first start) created it.
    public var createdAt: Date

    /// A new company with a random id; `CompanyProfile.create` checks the name first.
    public init(id: UUID = UUID(), name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}
