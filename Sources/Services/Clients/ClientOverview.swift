import Foundation
import HealthwheelCore
import Store

/// Everything a client's page shows, in one call: the client, their trainer, the wheel, the last year's results
/// (each category's trend and the latest results) and the photos of the latest ones. The wheel comes from the
/// wheel cache; the results are one indexed read, the media one more.
public struct ClientOverview: Sendable {
    let store: Store
    let wheels: ClientWheels
    let clock: any WallClock

    /// Results of the period a page's trends cover, newest kept.
    public static let maximumResults = 1_000
    /// How many of the newest results a page lists with their photos.
    public static let latestShown = 8

    public init(store: Store, wheels: ClientWheels, clock: any WallClock) {
        self.store = store
        self.wheels = wheels
        self.clock = clock
    }

    /// What the page shows.
    public struct Overview: Sendable {
        public var record: ClientRecord
        /// The client's trainer; nil when unassigned.
        public var trainer: Trainer?
        /// The wheel as it stands.
        public var slices: [HealthWheel.Slice]
        /// The wheel as it stood at the compare date, when one was asked for.
        public var compared: [HealthWheel.Slice]?
        /// The results of the last `days` days, newest first (at most `maximumResults`).
        public var results: [ResultSummary]
        /// The photos and videos of the `latestShown` newest results, by result id.
        public var media: [UUID: [MediaFile]]
    }

    /// The client's page as of now, names in `language`; with `compare`, the wheel at that instant too. Throws
    /// `notFound` for another company's client.
    public func overview(client id: UUID, in company: UUID, language: String, compare: Date?, days: Int = 365, knownVersion: Int64? = nil)
        async throws -> Overview
    {
        guard let record = try await store.clients.find(id, in: company, knownVersion: knownVersion) else { throw ServiceError.notFound("client") }
        let now = clock.now
        let trainer = try await record.client.assignedTrainerId.asyncMap { try await store.trainers.find($0, in: company) } ?? nil
        let slices = try await wheels.slices(client: id, company: company, language: language)
        let compared = try await compare.asyncMap { try await wheels.slices(client: id, company: company, asOf: $0, language: language) }
        let results = try await store.results.summaries(
            client: id,
            in: company,
            from: now.addingTimeInterval(-Double(days) * 86_400),
            to: now,
            limit: Self.maximumResults
        )
        let media = try await store.media.list(results: results.prefix(Self.latestShown).map(\.id), in: company)
        return Overview(record: record, trainer: trainer, slices: slices, compared: compared, results: results, media: media)
    }
}
