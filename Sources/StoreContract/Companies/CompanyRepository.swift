import Foundation
import HealthwheelCore

/// Companies and their settings. Companies are created by the operator's CLI (or the demo), never over HTTP.
public protocol CompanyRepository: Sendable {
    /// Stores a new company with default settings (a 60-second correction window, slices below 4 flagged).
    func create(_ company: Company) async throws
    /// The company, or nil when there is none with `id`.
    func find(_ id: UUID) async throws -> Company?
    /// How many companies exist: 0 on a first start, when `serve` may create the demo company.
    func count() async throws -> Int
    /// The company's settings; the defaults for an id that is no company's.
    func settings(of id: UUID) async throws -> CompanySettings
    /// Loads the settings in a write transaction, lets `change` edit them, saves them with `audit`. Nil when absent.
    func updateSettings(of id: UUID, audit: AuditEvent, _ change: (inout CompanySettings) throws -> Void) async throws -> CompanySettings?
}
