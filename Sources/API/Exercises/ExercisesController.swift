import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore
import Services
import StoreContract

/// `/v1/categories`, `/v1/exercises`, `/v1/exercise-packs` and `/v1/exercise-images`: the exercise packs a
/// company sees, scoring without storing, and pack imports by admins. Texts are in the reader's language
/// (`?lang=`, else `Accept-Language`, else the company theme's) where the packs have them, English elsewhere.
struct ExercisesController {
    let catalog: ExerciseCatalog
    let themes: CompanyThemes
    let importer: ExercisePackImport
    let scorer: ExerciseScorer
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("categories", use: categories)
        group.get("exercises", use: exercises)
        group.get("exercises/:exerciseId", use: show)
        group.post("exercises/:exerciseId/score", use: score)
        group.post("exercise-packs", use: importPack)
        group.get("exercise-images/**", use: image)
    }

    struct CategoryBody: Encodable {
        var id: String
        var name: String
        var colour: String
        var order: Int?
        var version: Int
        /// `shipped` for packs every company sees, `company` for the company's own.
        var scope: String
        var exerciseCount: Int

        init(_ stored: StoredExercisePack) {
            id = stored.pack.id
            name = stored.pack.name
            colour = stored.pack.colour
            order = stored.pack.order
            version = stored.pack.version
            scope = stored.owner == ExerciseCatalog.everyCompany ? "shipped" : "company"
            exerciseCount = stored.pack.exercises.count
        }
    }

    struct ExerciseBody: Encodable {
        var id: String
        var categoryId: String
        var packVersion: Int
        var name: String
        var description: String
        var fields: [FieldBody]
        var primaryField: String
        var steps: [StepBody]?
        var considerations: String?
        var source: String?
        var loinc: String?
        var conversionAlgorithm: String?

        struct FieldBody: Encodable {
            var key: String
            var label: String
            var quantity: Quantity
            var unit: String
            /// Whether values below zero are accepted (a gap in a reach test).
            var signed: Bool
            /// What follows a count ("stands"), in the reader's language; absent for units that say it themselves.
            var unitLabel: String?
            /// The unit values are stored and scored in.
            var storedUnit: String
            var acceptedUnits: [String]
            /// This value's own LOINC code, where it has one apart from the exercise's.
            var loinc: String?
        }

        struct StepBody: Encodable {
            var text: String
            var image: String?
        }

        init(_ entry: ExerciseCatalog.Entry, detailed: Bool) {
            let exercise = entry.exercise
            id = exercise.id
            categoryId = entry.pack.id
            packVersion = entry.pack.version
            name = exercise.name
            description = exercise.description
            fields = exercise.fields.map {
                FieldBody(
                    key: $0.key,
                    label: $0.label,
                    quantity: $0.quantity,
                    unit: $0.unit,
                    signed: $0.signed ?? false,
                    unitLabel: $0.unitLabel,
                    storedUnit: $0.quantity.siUnit,
                    acceptedUnits: $0.quantity.units.map(\.name),
                    loinc: $0.loinc
                )
            }
            primaryField = exercise.primaryField
            guard detailed else { return }
            let imagesServed = entry.owner == ExerciseCatalog.everyCompany
            steps = exercise.steps.map { StepBody(text: $0.text, image: imagesServed ? $0.image.map { "/v1/exercise-images/\($0)" } : nil) }
            considerations = exercise.considerations
            source = exercise.source
            loinc = exercise.loinc
            conversionAlgorithm = exercise.conversionAlgorithm
        }
    }

    @Sendable func categories(request: Request, context: AuthenticatedContext) async throws -> Response {
        let language = try await language(request, context)
        let items = catalog.categories(for: context.trainer.companyId, language: language).map(CategoryBody.init)
        return try .json(ListBody(items: items, nextCursor: nil)).speaking(language)
    }

    @Sendable func exercises(request: Request, context: AuthenticatedContext) async throws -> Response {
        let company = context.trainer.companyId
        let language = try await language(request, context)
        var categories = catalog.categories(for: company, language: language)
        if let wanted = request.uri.parameter("category") {
            // A filter: a category the company does not see has no exercises (an empty list, as for any filter).
            categories = categories.filter { $0.pack.id == wanted }
        }
        let items = categories.flatMap { stored in
            stored.pack.exercises.compactMap { catalog.exercise($0.id, for: company, language: language) }.map { ExerciseBody($0, detailed: false) }
        }
        return try .json(ListBody(items: items, nextCursor: nil)).speaking(language)
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let language = try await language(request, context)
        return try .json(ExerciseBody(try entry(context, language: language), detailed: true)).speaking(language)
    }

    private func language(_ request: Request, _ context: AuthenticatedContext) async throws -> String {
        try await themes.readerLanguage(asked: request.readerLanguage, company: context.trainer.companyId)
    }

    struct ScoreRequest: StrictJSONBody {
        static let nullableKeys: Set<String>? = []
        var client: Subject
        var values: [String: MeasurementInput]

        enum CodingKeys: String, CodingKey, CaseIterable {
            case client, values
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // The client's keys are checked too: a misspelt `heigth` must not be scored as if it were absent.
            let client = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .client)
            if let unknown = client.allKeys.first(where: { !Subject.keys.contains($0.stringValue) }) {
                throw DecodingError.dataCorruptedError(forKey: unknown, in: client, debugDescription: "is not a field of a client to score")
            }
            self.client = try container.decode(Subject.self, forKey: .client)
            values = try container.decode([String: MeasurementInput].self, forKey: .values)
        }
    }

    struct ScoreBody: Encodable {
        var score: Double?
        var scoreError: String?
        var values: [String: Double]
    }

    /// Scores without storing anything: for pack authors and for a trainer's "what would this give?".
    @Sendable func score(request: Request, context: AuthenticatedContext) async throws -> Response {
        let entry = try entry(context)
        let body = try await request.decodeJSON(ScoreRequest.self, context: context)
        try ServiceError.requireFitting(.set(body.values), of: entry.exercise, partial: false)
        var errors = FieldErrorCollector()
        if !(0...130).contains(body.client.age) { errors.add("client.age", "must be from 0 to 130") }
        if let height = body.client.height, !(0.3...2.8).contains(height) { errors.add("client.height", "must be from 0.3 to 2.8 m") }
        if let mass = body.client.mass, !(1...500).contains(mass) { errors.add("client.mass", "must be from 1 to 500 kg") }
        let values = errors.check { () throws(ValidationError) in try ResultValues.parse(body.values, for: entry.exercise) }
        try errors.throwIfAny()
        let (score, error) = await scorer.score(entry, subject: body.client, values: values ?? [:], company: context.trainer.companyId)
        return try .json(ScoreBody(score: score, scoreError: error, values: values ?? [:]))
    }

    /// An admin adds a pack (or a new version of one) for their company only.
    @Sendable func importPack(request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.requireAdmin(to: "import exercise packs")
        let data = try await request.collectJSON(context: context)
        // Not JSON, not an object, or nested past the decoder's depth: the same 400 as on every other route.
        guard case .object = try? JSONDecoder().decode(JSONValue.self, from: data) else { throw Problem.malformed("the body is not a JSON object") }
        try NULCharacter.refuse(in: data)
        let company = context.trainer.companyId
        let (pack, imported) = try await importer.importUpload(Array(data), by: context.trainer, at: clock.now)
        let body = CategoryBody(StoredExercisePack(owner: ExerciseCatalog.owner(of: company), pack: pack, importedAt: clock.now))
        guard imported else { return try .json(body) }
        context.logger.info("exercise pack imported", metadata: ["pack.id": "\(pack.id)", "pack.version": "\(pack.version)"])
        return try .json(body, status: .created)
    }

    /// A step image of a shipped pack. The path is checked to stay inside the pack folder.
    @Sendable func image(request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let image = try await catalog.stepImage(context.parameters.getCatchAll().joined(separator: "/")) else {
            throw Problem.notFound("image")
        }
        // An SVG could carry script: served as an image that may not run anything.
        var headers: HTTPFields = [.contentType: image.contentType, .cacheControl: "public, max-age=86400"]
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; style-src 'unsafe-inline'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }

    private func entry(_ context: AuthenticatedContext, language: String = "en") throws -> ExerciseCatalog.Entry {
        guard let id = context.parameters.get("exerciseId"), let entry = catalog.exercise(id, for: context.trainer.companyId, language: language)
        else {
            throw Problem.notFound("exercise")
        }
        return entry
    }
}
