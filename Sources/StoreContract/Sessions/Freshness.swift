/// How current a process's caches are, as the session's read learnt it (with the principal, in the same
/// statement): the exercise catalog's version, the company theme's, the company's client list's, and the stamps
/// of the client a request names. A request hands it whole to the use cases it calls, and each cache takes the
/// stamp it is checked against: a door never picks stamps. Where a value is not known (nil: the embedded file,
/// whose caches see its every commit; a command; a test), the cache asks the database itself.
public struct Freshness: Sendable, Equatable {
    /// The stored exercise packs' version (`ExercisePackRepository.catalogVersion`): a process whose catalog is
    /// older reloads it before answering.
    public var catalogVersion: Int64?
    /// The company theme's version (`StoredTheme.version`, 0 before any change): a resolved theme of that version
    /// may be used without reading it again.
    public var themeVersion: Int64?
    /// The company's client list version (`ClientRepository.listVersion`), where the database is shared: the list
    /// and client records cached at that version are current without another statement.
    public var clientsVersion: Int64?
    /// The wheel stamp of the client the request names (`/v1/clients/{id}/…`), where the database is shared.
    public var namedClient: ClientStamps?

    public init(catalogVersion: Int64? = nil, themeVersion: Int64? = nil, clientsVersion: Int64? = nil, namedClient: ClientStamps? = nil) {
        self.catalogVersion = catalogVersion
        self.themeVersion = themeVersion
        self.clientsVersion = clientsVersion
        self.namedClient = namedClient
    }

    /// Nothing known: every cache asks the database.
    public static let unknown = Freshness()
}
