import Foundation
import HealthwheelCore
import StoreContract

/// Clients' health wheels: one slice per category in wheel order, from the newest result of each exercise. The
/// cost does not grow with the number of past results, and a wheel nothing has changed is served from memory.
public struct ClientWheels: Sendable {
    let results: any ResultRepository
    let catalog: ExerciseCatalog
    let cache = ClientRenderings(maxBytes: 64 << 20)

    /// One per process (`UseCases` builds it): its cache of rendered wheels is shared by the API and wheel pictures.
    public init(store: Repositories, catalog: ExerciseCatalog) {
        self.results = store.results
        self.catalog = catalog
    }

    /// An exercise's latest values as an imperial reader sees them, or nil when not asked for.
    public typealias Display = (HealthWheel.ExerciseScore) -> [String: ImperialDisplay.Value]?

    /// The company's threshold and the client's slices as `render` writes them. Served from the cache while the
    /// client's results version, the catalog and the threshold are unchanged: one point query in the usual case,
    /// whatever the number of exercises and results.
    /// Category and exercise names are in `language` where the packs have them.
    public func wheel(
        client: UUID,
        company: UUID,
        imperial: Bool,
        language: String = "en",
        freshness: Freshness = .unknown,
        render: ([HealthWheel.Slice], Display) throws -> [UInt8]
    ) async throws -> (flagBelow: Double, slices: [UInt8]) {
        let rendering = (imperial ? "json-imperial-" : "json-") + language
        return try await rendered(client: client, company: company, rendering: rendering, language: language, themeVersion: 0, freshness: freshness) {
            wheel in
            try render(wheel) { exercise in
                guard imperial, let latest = exercise.latest, let entry = catalog.exercise(exercise.exerciseId, for: company) else { return nil }
                return ImperialDisplay.values(latest.values, of: entry.exercise)
            }
        }
    }

    /// The client's wheel as it stands, or as it stood at `asOf`, not rendered; names in `language` where the packs have them.
    public func slices(client: UUID, company: UUID, asOf: Date? = nil, language: String = "en") async throws -> [HealthWheel.Slice] {
        guard let stamp = try await results.wheelStamp(client: client, in: company) else { throw ServiceError.notFound("client") }
        let categories = catalog.wheelCategories(for: company, language: language).categories
        let latest = try await results.latestForWheel(client: client, exerciseIds: categories.flatMap { $0.exercises.map(\.id) }, asOf: asOf)
        return HealthWheel.slices(categories, scored: latest.scored, newest: latest.newest, flagBelow: stamp.flagBelow)
    }

    /// The client's wheel stamp (nil when it is not the company's client): the one the session's read brought
    /// when it named this client (`Freshness.namedClient`), else read now.
    private func stamp(of client: UUID, in company: UUID, freshness: Freshness) async throws -> WheelStamp? {
        if let known = freshness.namedClient, known.client == client { return known.wheel }
        return try await results.wheelStamp(client: client, in: company)
    }

    /// The client's wheel as `render` writes it (a picture, say), cached under `rendering` (which names `language`)
    /// and also keyed by the company's theme version, which the picture depends on.
    func rendered(
        client: UUID,
        company: UUID,
        rendering: String,
        language: String,
        themeVersion: Int64,
        freshness: Freshness = .unknown,
        render: ([HealthWheel.Slice]) async throws -> [UInt8]
    ) async throws -> (flagBelow: Double, slices: [UInt8]) {
        guard let stamp = try await stamp(of: client, in: company, freshness: freshness) else { throw ServiceError.notFound("client") }
        let (categories, generation) = catalog.wheelCategories(for: company, language: language)
        var key = ClientRenderings.Key(
            resultsVersion: stamp.resultsVersion,
            catalogGeneration: generation,
            flagBelow: stamp.flagBelow,
            themeVersion: themeVersion
        )
        let slot = ClientRenderings.Slot(client: client, rendering: rendering)
        if let bytes = cache.bytes(of: slot, at: key) { return (stamp.flagBelow, bytes) }
        let latest = try await results.latestForWheel(client: client, exerciseIds: categories.flatMap { $0.exercises.map(\.id) }, asOf: nil)
        let wheel = HealthWheel.slices(categories, scored: latest.scored, newest: latest.newest, flagBelow: stamp.flagBelow)
        let bytes = try await render(wheel)
        // Kept under the version the results were read at, which may be newer than the stamp's.
        key.resultsVersion = latest.resultsVersion
        cache.keep(bytes, of: slot, at: key)
        return (stamp.flagBelow, bytes)
    }
}
