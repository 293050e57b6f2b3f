import Foundation
import HealthwheelCore

/// Each company's branding as stored: its choice of theme, its own logo, and a version that moves with either.
public protocol ThemeRepository: Sendable {
    /// The company's branding; the default (no choice, no logo, version 0) when it never changed it.
    func find(company: UUID) async throws -> StoredTheme
    /// Records the company's choice of theme, keeping its logo, with `audit`.
    func setChoice(_ choice: StoredTheme.Choice, of company: UUID, at now: Date, audit: AuditEvent) async throws -> StoredTheme
    /// Replaces the company's logo and its normalised copy (nil removes both), keeping its choice of theme, with
    /// `audit`.
    func setLogo(_ logo: (original: [UInt8], report: [UInt8])?, of company: UUID, at now: Date, audit: AuditEvent) async throws -> StoredTheme
    /// Keeps `report` as the normalised copy of a logo stored without one, if the company's branding is still at
    /// `version` and has none; the version does not move (the logo is the same). False when nothing was kept.
    func keepReportLogo(_ report: [UInt8], of company: UUID, atVersion version: Int64) async throws -> Bool
}
