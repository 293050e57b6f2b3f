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

    /// The company's client list version (`ClientRepository.listVersion`) as of this read, where the database is
    /// shared: then the list and client records cached at that version are current without another statement. Nil
    /// on the embedded file, whose caches see its every commit.
    public var clientsVersion: Int64?
    /// The wheel stamp of the client the request names (`/v1/clients/{id}/…`), read with the session where the
    /// database is shared.
    public var namedClient: ClientStamps?
    /// When the session was opened and when it ends (as stored when it was read).
    public var session: DateInterval

    public init(
        trainer: Trainer,
        company: Company,
        catalogVersion: Int64 = 0,
        themeVersion: Int64 = 0,
        clientsVersion: Int64? = nil,
        namedClient: ClientStamps? = nil,
        session: DateInterval = DateInterval(start: .distantPast, end: .distantFuture)
    ) {
        self.trainer = trainer
        self.company = company
        self.catalogVersion = catalogVersion
        self.themeVersion = themeVersion
        self.clientsVersion = clientsVersion
        self.namedClient = namedClient
        self.session = session
    }
}

/// What the session's read learnt about one client of the principal's company (see `Principal.namedClient`).
public struct ClientStamps: Sendable, Equatable {
    public var client: UUID
    /// Nil when the client is not the company's.
    public var wheel: WheelStamp?

    public init(client: UUID, wheel: WheelStamp?) {
        self.client = client
        self.wheel = wheel
    }
}
