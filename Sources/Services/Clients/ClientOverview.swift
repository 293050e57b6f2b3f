import Foundation
import HealthwheelCore
import Store

/// Everything a client's page shows, in one call: the client, their trainer, the wheel, each exercise's scores over
/// the last year (the trends), the latest results and their photos. The wheel and the trends are kept in memory
/// until the client's results, the catalog or the threshold change (the wheel cache's stamp), so a page seen again
/// reads the trainer, the latest results and their media: three indexed reads, whatever the client's history.
public struct ClientOverview: Sendable {
    let store: Store
    let wheels: ClientWheels
    let clock: any WallClock

    /// Results of the period the trends cover, newest kept.
    public static let maximumResults = 1_000
    /// How many of the newest results a page lists with their photos.
    public static let latestShown = 8
    /// Days the trends cover.
    public static let days = 365

    public init(store: Store, wheels: ClientWheels, clock: any WallClock) {
        self.store = store
        self.wheels = wheels
        self.clock = clock
    }

    /// One score of an exercise's trend.
    public struct TrendPoint: Sendable, Equatable {
        public var recordedAt: Date
        public var score: Double
    }

    /// What the page shows.
    public struct Overview: Sendable {
        public var record: ClientRecord
        /// The client's trainer; nil when unassigned.
        public var trainer: Trainer?
        /// The wheel as it stands; each exercise with its score, without its latest values.
        public var slices: [HealthWheel.Slice]
        /// The wheel as it stood at the compare date, when one was asked for.
        public var compared: [HealthWheel.Slice]?
        /// Each exercise's scored results of the last `days` days, oldest first.
        public var trends: [String: [TrendPoint]]
        /// The newest results, newest first (at most `latestShown`).
        public var latest: [ResultSummary]
        /// Their photos and videos, by result id.
        public var media: [UUID: [MediaFile]]
    }

    /// What a client's page is made from that is read on every view: the client, their trainer, the wheel stamp,
    /// the newest results and their media. `fingerprint` names all of it (with the catalog's generation): two
    /// bases with the same fingerprint make the same page on the same day.
    public struct Basis: Sendable {
        public var record: ClientRecord
        public var trainer: Trainer?
        public var latest: [ResultSummary]
        public var media: [UUID: [MediaFile]]
        let stamp: WheelStamp
        let catalogGeneration: Int

        public var fingerprint: String {
            let client = record.client
            let facts = record.screening
            var parts = [
                client.id.uuidString, String(client.updatedAt.timeIntervalSince1970), String(record.hasPhoto),
                facts.latestCompletedAt.map { String($0.timeIntervalSince1970) } ?? "-", facts.latestCompletedFlags.joined(separator: ","),
                String(facts.hasDraft), trainer.map { "\($0.id) \($0.name)" } ?? "-", String(stamp.resultsVersion), String(stamp.flagBelow),
                String(catalogGeneration),
            ]
            for result in latest {
                for file in media[result.id] ?? [] { parts.append("\(file.id) \(file.updatedAt.timeIntervalSince1970)") }
            }
            return parts.map { "\($0.utf8.count):\($0)" }.joined()
        }
    }

    /// The reads every view of a client's page makes. Throws `notFound` for another company's client.
    public func basis(client id: UUID, in company: UUID, knownVersion: Int64? = nil) async throws -> Basis {
        guard let record = try await store.clients.find(id, in: company, knownVersion: knownVersion) else { throw ServiceError.notFound("client") }
        guard let stamp = try await store.results.wheelStamp(client: id, in: company) else { throw ServiceError.notFound("client") }
        let trainer = try await record.client.assignedTrainerId.asyncMap { try await store.trainers.find($0, in: company) } ?? nil
        let latest = try await store.results.summaries(client: id, in: company, from: .distantPast, to: clock.now, limit: Self.latestShown)
        let media = latest.isEmpty ? [:] : try await store.media.list(results: latest.map(\.id), in: company)
        return Basis(record: record, trainer: trainer, latest: latest, media: media, stamp: stamp, catalogGeneration: wheels.catalog.generation)
    }

    /// The client's page as of now, names in `language`; with `compare`, the wheel at that instant too.
    public func overview(of basis: Basis, in company: UUID, language: String, compare: Date?) async throws -> Overview {
        let id = basis.record.client.id
        let now = clock.now
        let from = now.addingTimeInterval(-Double(Self.days) * 86_400)
        // The period moves with the day: kept per day.
        let rendering = "overview-\(language)-\(CalendarDate(now))"
        let bytes = try await wheels.rendered(client: id, company: company, rendering: rendering, language: language, themeVersion: 0) { slices in
            let results = try await store.results.summaries(client: id, in: company, from: from, to: now, limit: Self.maximumResults)
            return Self.encode(slices, trends: Self.trends(results))
        }.slices
        let (slices, trends) = Self.decode(bytes)
        let compared = try await compare.asyncMap { try await wheels.slices(client: id, company: company, asOf: $0, language: language) }
        return Overview(
            record: basis.record,
            trainer: basis.trainer,
            slices: slices,
            compared: compared,
            trends: trends,
            latest: basis.latest,
            media: basis.media
        )
    }

    /// Each exercise's scored results, oldest first.
    static func trends(_ results: [ResultSummary]) -> [String: [TrendPoint]] {
        var trends: [String: [TrendPoint]] = [:]
        for result in results.reversed() {
            if let score = result.score { trends[result.exerciseId, default: []].append(TrendPoint(recordedAt: result.recordedAt, score: score)) }
        }
        return trends
    }

    static func encode(_ slices: [HealthWheel.Slice], trends: [String: [TrendPoint]]) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(slices.count)
        for slice in slices {
            writer.write(slice.categoryId)
            writer.write(slice.name)
            writer.write(slice.colour)
            writer.write(slice.score)
            writer.write(slice.flagged)
            writer.write(slice.exercises.count)
            for exercise in slice.exercises {
                writer.write(exercise.exerciseId)
                writer.write(exercise.name)
                writer.write(exercise.score)
            }
        }
        writer.write(trends.count)
        for (exercise, points) in trends {
            writer.write(exercise)
            writer.write(points.count)
            for point in points {
                writer.write(point.recordedAt.timeIntervalSince1970)
                writer.write(point.score)
            }
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) -> (slices: [HealthWheel.Slice], trends: [String: [TrendPoint]]) {
        var reader = ByteReader(bytes)
        let slices = (0..<reader.int()).map { _ in
            var slice = HealthWheel.Slice(
                categoryId: reader.string(),
                name: reader.string(),
                colour: reader.string(),
                score: reader.optionalDouble(),
                flagged: reader.bool()
            )
            slice.exercises = (0..<reader.int()).map { _ in
                HealthWheel.ExerciseScore(exerciseId: reader.string(), name: reader.string(), score: reader.optionalDouble(), latest: nil)
            }
            return slice
        }
        var trends: [String: [TrendPoint]] = [:]
        for _ in 0..<reader.int() {
            let exercise = reader.string()
            trends[exercise] = (0..<reader.int()).map { _ in
                TrendPoint(recordedAt: Date(timeIntervalSince1970: reader.double()), score: reader.double())
            }
        }
        return (slices, trends)
    }
}
