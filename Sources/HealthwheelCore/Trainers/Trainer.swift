import Foundation

/// What a trainer may do inside their company.
public enum Role: String, Codable, Sendable, CaseIterable {
    /// Manages the company's trainers, settings, theme and exercise packs, and may rescore clients.
    case admin
    /// Works with clients.
    case trainer
}

/// A person who logs in. The password hash is deliberately not part of this type, so it can never be
/// serialised into a response by accident.
public struct Trainer: Codable, Sendable, Equatable {
    /// Random; sessions, results, screenings and deliveries name the trainer by it.
    public var id: UUID
    /// The company the trainer works for; they see only its clients and records.
    public var companyId: UUID
    /// The login, lower-cased; unique within the company (the same person may train in two gyms). Report emails carry it as their reply-to address.
    public var email: String
    /// Trimmed, 1–200 characters: shown in the app, in reports and as the reply-to name of report emails.
    public var name: String
    /// Whether they may manage trainers, settings, theme and packs (`admin`) or only work with clients.
    public var role: Role
    /// When the trainer was added.
    public var createdAt: Date
    /// When the profile last changed, a new password included.
    public var updatedAt: Date

    /// A trainer as stored; `NewTrainer.trainer(in:at:)` makes a new one from checked input.
    public init(id: UUID = UUID(), companyId: UUID, email: String, name: String, role: Role, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.companyId = companyId
        self.email = email
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
