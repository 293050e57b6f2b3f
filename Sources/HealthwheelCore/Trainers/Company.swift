import Foundation

/// A business that employs trainers. Every other record belongs to exactly one company.
public struct Company: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var createdAt: Date

    public init(id: UUID = UUID(), name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}
