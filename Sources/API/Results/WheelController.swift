import Foundation
import HealthwheelCore
import Hummingbird
import Store
import Synchronization

/// `/v1/clients/{id}/wheel`: the client's health wheel, one slice per category in wheel order, from the newest
/// result of each exercise. Its cost does not grow with the number of past results.
struct WheelController {
    let store: Store
    let catalog: ExerciseCatalog
    let clock: any WallClock
    var cache = WheelCache()

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/wheel", use: wheel)
    }

    /// Served from the client's cached slices while their results version, the catalog and the company's threshold
    /// are unchanged: one point query in the usual case, whatever the number of exercises and results.
    @Sendable func wheel(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try ClientsController.clientId(context)
        let imperial = try wantsImperialUnits(request)
        let company = context.trainer.companyId
        guard let stamp = try await store.results.wheelStamp(client: client, in: company) else { throw Problem.notFound("client") }
        let (categories, generation) = catalog.wheelCategories(for: company)
        let key = WheelCache.Key(resultsVersion: stamp.resultsVersion, catalogGeneration: generation, flagBelow: stamp.flagBelow)
        let slot = WheelCache.Slot(client: client, imperial: imperial)
        var slices = cache.slices(of: slot, at: key)
        if slices == nil {
            let latest = try await store.results.latestForWheel(client: client, exerciseIds: categories.flatMap { $0.exercises.map(\.id) })
            let wheel = HealthWheel.slices(categories, scored: latest.scored, newest: latest.newest, flagBelow: stamp.flagBelow)
            let display = { (exercise: HealthWheel.ExerciseScore) -> [String: ImperialDisplay.Value]? in
                guard imperial, let latest = exercise.latest, let entry = catalog.exercise(exercise.exerciseId, for: company) else { return nil }
                return ImperialDisplay.values(latest.values, of: entry.exercise)
            }
            let encoded = try ResponseJSONEncoder().encode(wheel.map { SliceBody(slice: $0, display: display) })
            // Kept under the version the results were read at, which may be newer than the stamp's.
            cache.keep(
                encoded,
                of: slot,
                at: WheelCache.Key(resultsVersion: latest.resultsVersion, catalogGeneration: generation, flagBelow: stamp.flagBelow)
            )
            slices = encoded
        }
        return try .json(WheelBody(flagBelow: stamp.flagBelow, generatedAt: clock.now, slices: PreencodedJSON(bytes: slices ?? [])))
    }

    struct WheelBody: Encodable {
        var target = HealthWheel.target
        var flagBelow: Double
        var generatedAt: Date
        var slices: PreencodedJSON
    }

    struct SliceBody: Encodable {
        var slice: HealthWheel.Slice
        /// With `?units=imperial`, an exercise's latest values in inches, pounds or miles.
        var display: (HealthWheel.ExerciseScore) -> [String: ImperialDisplay.Value]?

        enum CodingKeys: String, CodingKey {
            case categoryId, name, colour, score, flagged, exercises
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(slice.categoryId, forKey: .categoryId)
            try container.encode(slice.name, forKey: .name)
            try container.encode(slice.colour, forKey: .colour)
            try container.encode(slice.score, forKey: .score)
            try container.encode(slice.flagged, forKey: .flagged)
            try container.encode(slice.exercises.map { ExerciseBody(exercise: $0, display: display($0)) }, forKey: .exercises)
        }
    }

    struct ExerciseBody: Encodable {
        var exercise: HealthWheel.ExerciseScore
        var display: [String: ImperialDisplay.Value]?

        enum CodingKeys: String, CodingKey {
            case exerciseId, name, score, latest, values, display, recordedAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(exercise.exerciseId, forKey: .exerciseId)
            try container.encode(exercise.name, forKey: .name)
            try container.encode(exercise.score, forKey: .score)
            if let latest = exercise.latest {
                var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .latest)
                try nested.encode(ByKey(latest.values), forKey: .values)
                try nested.encodeIfPresent(display.map(ByKey.init), forKey: .display)
                try nested.encode(latest.recordedAt, forKey: .recordedAt)
            } else {
                try container.encodeNil(forKey: .latest)
            }
        }
    }
}

/// Each client's wheel slices as JSON, for as long as what they were built from is unchanged. Bounded: when full it
/// starts over, which costs one rebuild per client asked for next.
final class WheelCache: Sendable {
    struct Key: Equatable {
        var resultsVersion: Int64
        var catalogGeneration: Int
        var flagBelow: Double
    }

    /// A client's wheel in one system of units.
    struct Slot: Hashable {
        var client: UUID
        var imperial: Bool
    }

    private struct Entry {
        var key: Key
        var slices: [UInt8]
    }

    static let maxEntries = 20_000
    private let entries = Mutex<[Slot: Entry]>([:])

    func slices(of slot: Slot, at key: Key) -> [UInt8]? {
        entries.withLock { entries in entries[slot].flatMap { $0.key == key ? $0.slices : nil } }
    }

    func keep(_ slices: [UInt8], of slot: Slot, at key: Key) {
        entries.withLock { entries in
            if entries.count >= Self.maxEntries, entries[slot] == nil { entries.removeAll(keepingCapacity: true) }
            entries[slot] = Entry(key: key, slices: slices)
        }
    }
}
