import Foundation
import HealthwheelCore
import Store

/// Checks a pack all-or-nothing, stores it as a new version and refreshes the catalog. Used by the admin route and
/// by `healthwheel exercises import`.
public struct ExercisePackImport: Sendable {
    public let store: Store
    public let catalog: ExerciseCatalog
    public let scorer: ExerciseScorer

    public init(store: Store, catalog: ExerciseCatalog, scorer: ExerciseScorer) {
        self.store = store
        self.catalog = catalog
        self.scorer = scorer
    }

    /// The pack in `json`, or every problem found, each naming its path in the pack: its shape, its scripts and
    /// examples (`check`), and ids clashing with packs the same companies see.
    public func validate(_ json: [UInt8], owner: String, imageExists: ((String) -> Bool)?) throws(ValidationError) -> ExercisePack {
        let pack = try Self.check(json, imageExists: imageExists, scorer: scorer)
        let clashes = catalog.clashes(of: pack, owner: owner)
        if !clashes.isEmpty { throw ValidationError(clashes) }
        return pack
    }

    /// Everything about a pack that needs no database: JSON shape and unknown keys, ids, colour, fields, step
    /// images (`imageExists` checks them against the pack's folder; nil for uploads, which have none), and every
    /// script compiling and scoring its examples as declared.
    public static func check(_ json: [UInt8], imageExists: ((String) -> Bool)?, scorer: ExerciseScorer) throws(ValidationError) -> ExercisePack {
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
            let located = error.locatedDescription
            let colon = located.firstIndex(of: ":") ?? located.endIndex
            throw ValidationError(String(located[..<colon]), String(located[colon...].dropFirst(2)))
        } catch {
            throw ValidationError("", "is not an exercise pack")
        }
        var problems = ExercisePackCheck.problems(in: pack, imageExists: imageExists)
        if problems.isEmpty { problems = scorer.scriptProblems(in: pack) }
        if !problems.isEmpty { throw ValidationError(problems) }
        return pack
    }

    /// Stores a checked pack and makes it the version trainers see.
    public func save(_ pack: ExercisePack, owner: String, at now: Date) async throws -> ExercisePackSaveOutcome {
        try await save([pack], owner: owner, at: now)[0]
    }

    /// Stores checked packs in one transaction (none if any has a version conflict) and reloads the catalog.
    func save(_ packs: [ExercisePack], owner: String, at now: Date) async throws -> [ExercisePackSaveOutcome] {
        let outcomes = try await store.exercisePacks.save(packs, owner: owner, at: now)
        if outcomes.contains(.imported), !outcomes.contains(where: \.isConflict) { try await catalog.reload(from: store.exercisePacks) }
        return outcomes
    }
}

extension ExercisePackSaveOutcome {
    var isConflict: Bool {
        if case .versionConflict = self { true } else { false }
    }
}

/// A pack read from a file and checked whole (`ExercisePackImport.check`), not yet stored.
public struct ExercisePackFile: Sendable {
    public let name: String
    public let pack: ExercisePack
}

extension ExercisePackImport {
    /// A pack file that cannot be imported: the import stops with this, naming the file and each path inside it.
    public struct FileError: Error, CustomStringConvertible {
        public let file: String
        public let problems: [FieldError]
        public var description: String { "\(file): " + problems.map(\.description).joined(separator: "; ") }
    }

    /// Reads and checks `path` (one pack file, or every `*.json` in a folder) without a database, so start-up can
    /// refuse a broken shipped pack before opening one. Two files may not share a category or exercise id.
    public static func readFiles(at path: URL, scorer: ExerciseScorer) throws -> [ExercisePackFile] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
            throw FileError(file: path.path, problems: [FieldError("", "does not exist")])
        }
        let urls =
            isFolder.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: path.path).filter { $0.hasSuffix(".json") }.sorted().map(
                path.appendingPathComponent
            )
            : [path]
        var files: [ExercisePackFile] = []
        for url in urls {
            let folder = url.deletingLastPathComponent()
            let imageExists = { (image: String) in
                ExercisePackCheck.isSafeImagePath(image) && FileManager.default.fileExists(atPath: folder.appendingPathComponent(image).path)
            }
            let pack: ExercisePack
            do {
                pack = try check(Array(try Data(contentsOf: url)), imageExists: imageExists, scorer: scorer)
            } catch let error as ValidationError {
                throw FileError(file: url.lastPathComponent, problems: error.errors)
            }
            let earlier = files.map { StoredExercisePack(owner: ExerciseCatalog.everyCompany, pack: $0.pack, importedAt: .distantPast) }
            let clashes = ExerciseCatalog.clashes(of: pack, among: earlier)
            if !clashes.isEmpty { throw FileError(file: url.lastPathComponent, problems: clashes) }
            files.append(ExercisePackFile(name: url.lastPathComponent, pack: pack))
        }
        return files
    }

    /// Imports checked files for `owner`, all or nothing: every file is checked against the packs companies already
    /// see, and all are stored in one transaction, so a file in conflict leaves even the others unsaved. Reports
    /// each file's outcome through `progress`.
    public func importFiles(
        _ files: [ExercisePackFile],
        owner: String,
        at now: Date,
        progress: (String, ExercisePackSaveOutcome) -> Void
    )
        async throws
    {
        for file in files {
            let clashes = catalog.clashes(of: file.pack, owner: owner)
            if !clashes.isEmpty { throw FileError(file: file.name, problems: clashes) }
        }
        let outcomes = try await save(files.map(\.pack), owner: owner, at: now)
        for (file, outcome) in zip(files, outcomes) {
            if case .versionConflict(let latest) = outcome {
                throw FileError(
                    file: file.name,
                    problems: [FieldError("version", "version \(latest) is stored with other content; raise the version above \(latest)")]
                )
            }
        }
        for (file, outcome) in zip(files, outcomes) { progress(file.name, outcome) }
    }
}
