import Foundation
import HealthwheelCore
import StoreContract

/// Everything a client's page shows: the client, their trainer, the wheel, each exercise's scores over the last
/// year (the trends), the newest results and their photos. The wheel, the trends and the newest results are kept
/// in memory until the client's results, the catalog or the threshold change (the wheel cache's stamp), so a page
/// seen again reads the trainer and the newest results' media: two indexed reads, whatever the client's history.
public struct ClientOverview: Sendable {
    let clients: any ClientRepository
    let media: any MediaRepository
    let results: any ResultRepository
    let trainers: any TrainerRepository
    let wheels: ClientWheels
    let clock: any WallClock

    /// Results of the period the trends cover, newest kept.
    public static let maximumResults = 1_000
    /// How many of the newest results a page lists with their photos.
    public static let latestShown = 8
    /// Days the trends cover.
    public static let days = 365

    public init(store: Repositories, wheels: ClientWheels, clock: any WallClock) {
        self.clients = store.clients
        self.media = store.media
        self.results = store.results
        self.trainers = store.trainers
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
        /// The kept wheel, trends and newest results (`encode`), which `overview(of:)` reads the rest of.
        let kept: [UInt8]

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

    /// The reads every view of a client's page makes: the client and the wheel stamp (from memory), their trainer,
    /// the wheel, trends and newest results kept under the client's results version (read and kept on the first
    /// view after a change), the newest results' media. Names in `language`. Throws `notFound` for another company's
    /// client.
    public func basis(client id: UUID, in company: UUID, language: String, freshness: Freshness = .unknown) async throws -> Basis {
        guard let record = try await clients.find(id, in: company, knownVersion: freshness.clientsVersion) else {
            throw ServiceError.notFound("client")
        }
        guard let stamp = try await results.wheelStamp(client: id, in: company) else { throw ServiceError.notFound("client") }
        let trainer = try await record.client.assignedTrainerId.asyncMap { try await trainers.find($0, in: company) } ?? nil
        let now = clock.now
        let from = now.addingTimeInterval(-Double(Self.days) * 86_400)
        // The period moves with the day: kept per day.
        let rendering = "overview-\(language)-\(CalendarDate(now))"
        let kept = try await wheels.rendered(client: id, company: company, rendering: rendering, language: language, themeVersion: 0) { slices in
            let results = try await self.results.summaries(client: id, in: company, from: from, to: now, limit: Self.maximumResults)
            let latest = try await self.results.summaries(client: id, in: company, from: .distantPast, to: now, limit: Self.latestShown)
            return Self.encode(latest: latest, slices: slices, trends: Self.trends(results))
        }.slices
        var reader = ByteReader(kept)
        let latest = Self.readLatest(&reader)
        let media = latest.isEmpty ? [:] : try await self.media.list(results: latest.map(\.id), in: company)
        return Basis(
            record: record,
            trainer: trainer,
            latest: latest,
            media: media,
            stamp: stamp,
            catalogGeneration: wheels.catalog.generation,
            kept: kept
        )
    }

    /// The client's page as `basis` read it; with `compare`, the wheel at that instant too, names in `language`.
    public func overview(of basis: Basis, in company: UUID, language: String, compare: Date?) async throws -> Overview {
        let id = basis.record.client.id
        var reader = ByteReader(basis.kept)
        _ = Self.readLatest(&reader)
        let (slices, trends) = Self.readWheel(&reader)
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

    /// The newest results, the wheel and the trends as bytes, read back in that order.
    static func encode(latest: [ResultSummary], slices: [HealthWheel.Slice], trends: [String: [TrendPoint]]) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(latest.count)
        for result in latest {
            writer.write(result.id.uuidString)
            writer.write(result.exerciseId)
            writer.write(result.recordedAt.timeIntervalSince1970)
            writer.write(result.values.count)
            for (key, value) in result.values.sorted(by: { $0.key < $1.key }) {
                writer.write(key)
                writer.write(value)
            }
            writer.write(result.score)
            writer.write(result.observations != nil)
            if let observations = result.observations { writer.write(observations) }
        }
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

    static func readLatest(_ reader: inout ByteReader) -> [ResultSummary] {
        (0..<reader.int()).map { _ in
            let id = UUID(uuidString: reader.string()) ?? UUID()
            let exercise = reader.string()
            let recordedAt = Date(timeIntervalSince1970: reader.double())
            var values: [String: Double] = [:]
            for _ in 0..<reader.int() {
                let key = reader.string()
                values[key] = reader.double()
            }
            let score = reader.optionalDouble()
            let observations = reader.bool() ? reader.string() : nil
            return ResultSummary(id: id, exerciseId: exercise, recordedAt: recordedAt, values: values, score: score, observations: observations)
        }
    }

    static func readWheel(_ reader: inout ByteReader) -> (slices: [HealthWheel.Slice], trends: [String: [TrendPoint]]) {
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
