import Foundation
import HealthwheelCore
import StoreContract

/// Checks a pack all-or-nothing, stores it as a new version and refreshes the catalog. Used by the admin route and
/// by `healthwheel exercises import` (and start-up, for the shipped packs).
public struct ExercisePackImport: Sendable {
    let exercisePacks: any ExercisePackRepository
    let catalog: ExerciseCatalog
    /// Runs the pack's scripts on its examples before anything is stored (1 s of running time per pack in all).
    public let scorer: ExerciseScorer

    /// One per process (`UseCases` builds it); the CLI builds its own for `healthwheel exercises import`.
    public init(store: Repositories, catalog: ExerciseCatalog, scorer: ExerciseScorer) {
        self.exercisePacks = store.exercisePacks
        self.catalog = catalog
        self.scorer = scorer
    }

    /// Loads the catalog from the packs stored (at start-up, before shipped packs are imported over it).
    public func reloadCatalog() async throws {
        try await catalog.reload(from: exercisePacks)
    }

    /// The pack in `json`, or every problem found, each naming its path in the pack: its shape, its scripts and
    /// examples (`check`), and ids clashing with packs the same companies see.
    func validate(_ json: [UInt8], owner: String, imageExists: ((String) -> Bool)?) async throws(ValidationError) -> ExercisePack {
        let pack = try await Self.check(json, imageExists: imageExists, scorer: scorer, tenant: owner)
        let clashes = catalog.clashes(of: pack, owner: owner)
        if !clashes.isEmpty { throw ValidationError(clashes) }
        return pack
    }

    /// Everything about a pack that needs no database: JSON shape and unknown keys, ids, colour, fields, step
    /// images (`imageExists` checks them against the pack's folder; nil for uploads, which have none), and every
    /// script compiling and scoring its examples as declared, in `tenant`'s line of the scoring workers (the
    /// owner's: a company's id, or the shipped packs').
    public static func check(
        _ json: [UInt8],
        imageExists: ((String) -> Bool)?,
        scorer: ExerciseScorer,
        tenant: String = ""
    ) async throws(ValidationError) -> ExercisePack {
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: Data(json))
        } catch {
            throw ValidationError("", "is not valid JSON")
        }
        let unknown = ExercisePackCheck.unknownKeys(in: document)
        if !unknown.isEmpty { throw ValidationError(unknown) }
        let pack: ExercisePack
        do {
            pack = try JSONDecoder().decode(ExercisePack.self, from: Data(json))
        } catch let error as DecodingError {
            let (place, message) = error.located
            throw ValidationError(place, message)
        } catch {
            throw ValidationError("", "is not an exercise pack")
        }
        var problems = ExercisePackCheck.problems(in: pack, imageExists: imageExists)
        if problems.isEmpty { problems = await scorer.scriptProblems(in: pack, tenant: tenant) }
        if !problems.isEmpty { throw ValidationError(problems) }
        return pack
    }

    /// An admin's upload: checks the pack, stores it for the admin's company only and makes it the version its trainers see.
    /// `imported` is false when this very version is stored already; other content under a stored version is a conflict.
    public func importUpload(_ json: [UInt8], by admin: Trainer, at now: Date) async throws -> (pack: ExercisePack, imported: Bool) {
        try admin.requireAdmin(to: "import exercise packs")
        let owner = ExerciseCatalog.owner(of: admin.companyId)
        let pack = try await validate(json, owner: owner, imageExists: nil)
        let audit = { (pack: ExercisePack) in
            AuditEvent.company(.created, .pack, id: "\(pack.id)@\(pack.version)", in: admin.companyId, by: .trainer(admin.id), at: now)
        }
        switch try await save([pack], owner: owner, at: now, audit: audit)[0] {
        case .imported: return (pack, true)
        case .unchanged: return (pack, false)
        case .versionConflict(let latest):
            throw ServiceError.conflict(
                slug: "pack-version",
                "version \(latest) of pack '\(pack.id)' is stored with other content; a changed pack needs a version above \(latest)",
                field: "version"
            )
        }
    }

    /// Stores checked packs in one transaction (none if any has a version conflict) and reloads the catalog.
    func save(_ packs: [ExercisePack], owner: String, at now: Date, audit: ((ExercisePack) -> AuditEvent)?) async throws -> [ExercisePackSaveOutcome]
    {
        let outcomes = try await exercisePacks.save(packs, owner: owner, at: now, audit: audit)
        if outcomes.contains(.imported), !outcomes.contains(where: \.isConflict) { try await catalog.reload(from: exercisePacks) }
        return outcomes
    }
}

extension ExercisePackSaveOutcome {
    var isConflict: Bool {
        if case .versionConflict = self { true } else { false }
    }
}
