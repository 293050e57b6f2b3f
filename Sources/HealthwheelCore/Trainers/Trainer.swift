import Foundation

/// What a trainer may do inside their company.
public enum Role: String, Codable, Sendable, CaseIterable {
    /// Manages the company's trainers (and later its themes and exercise packs).
    case admin
    /// Works with clients.
    case trainer
}

/// A person who logs in. The password hash is deliberately not part of this type, so it can never be
/// serialised into a response by accident.
public struct Trainer: Codable, Sendable, Equatable {
    public var id: UUID
    public var companyId: UUID
    public var email: String
    public var name: String
    public var role: Role
    public var createdAt: Date
    public var updatedAt: Date

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
