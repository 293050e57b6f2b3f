import Foundation
import HealthwheelCore

/// Who is calling: the trainer a session belongs to, and their company.
public struct Principal: Sendable {
    /// The trainer the bearer token was issued to, as stored now (a changed role counts at once).
    public var trainer: Trainer
    /// The trainer's company: every read and write of the request is scoped to it.
    public var company: Company
    /// The stored exercise packs' version (`ExercisePackRepository.catalogVersion`) as of this read: a process
    /// whose catalog is older reloads it before answering.
    public var catalogVersion: Int64
    /// The company theme's version (`StoredTheme.version`, 0 before any change) as of this read: a resolved theme
    /// of that version may be used without reading it again.
    public var themeVersion: Int64

    public init(trainer: Trainer, company: Company, catalogVersion: Int64 = 0, themeVersion: Int64 = 0) {
        self.trainer = trainer
        self.company = company
        self.catalogVersion = catalogVersion
        self.themeVersion = themeVersion
    }
}
