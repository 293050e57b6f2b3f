import Foundation
import HealthwheelCore

public protocol CompanyRepository: Sendable {
    func create(_ company: Company) async throws
    func find(_ id: UUID) async throws -> Company?
    func count() async throws -> Int
    func settings(of id: UUID) async throws -> CompanySettings
    /// Loads the settings in a write transaction, lets `change` edit them, saves them. Nil when absent.
    func updateSettings(of id: UUID, _ change: (inout CompanySettings) throws -> Void) async throws -> CompanySettings?
}
