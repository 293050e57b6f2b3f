import Foundation
import HealthwheelCore
import Hummingbird
import Store

/// `/v1/clients/{id}/wheel`: the client's health wheel, one slice per category in wheel order, from the newest
/// result of each exercise. Its cost does not grow with the number of past results.
struct WheelController {
    let store: Store
    let catalog: ExerciseCatalog
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/wheel", use: wheel)
    }

    @Sendable func wheel(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try ClientsController.clientId(context)
        let company = context.trainer.companyId
        guard try await store.clients.exists(client, in: company) else { throw Problem.notFound("client") }
        let categories = catalog.wheelCategories(for: company)
        let latest = try await store.results.latestForWheel(client: client, exerciseIds: categories.flatMap { $0.exercises.map(\.id) })
        let flagBelow = try await store.companies.settings(of: company).wheelFlagBelow
        let slices = HealthWheel.slices(categories, scored: latest.scored, newest: latest.newest, flagBelow: flagBelow)
        return try .json(WheelBody(flagBelow: flagBelow, generatedAt: clock.now, slices: slices))
    }

    struct WheelBody: Encodable {
        var target = HealthWheel.target
        var flagBelow: Double
        var generatedAt: Date
        var slices: [SliceBody]

        init(flagBelow: Double, generatedAt: Date, slices: [HealthWheel.Slice]) {
            self.flagBelow = flagBelow
            self.generatedAt = generatedAt
            self.slices = slices.map(SliceBody.init)
        }
    }

    struct SliceBody: Encodable {
        var slice: HealthWheel.Slice

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
            try container.encode(slice.exercises.map(ExerciseBody.init), forKey: .exercises)
        }
    }

    struct ExerciseBody: Encodable {
        var exercise: HealthWheel.ExerciseScore

        enum CodingKeys: String, CodingKey {
            case exerciseId, name, score, latest, values, recordedAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(exercise.exerciseId, forKey: .exerciseId)
            try container.encode(exercise.name, forKey: .name)
            try container.encode(exercise.score, forKey: .score)
            if let latest = exercise.latest {
                var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .latest)
                try nested.encode(NumbersByKey(latest.values), forKey: .values)
                try nested.encode(latest.recordedAt, forKey: .recordedAt)
            } else {
                try container.encodeNil(forKey: .latest)
            }
        }
    }
}
