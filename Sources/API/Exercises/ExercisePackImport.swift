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

    /// The pack in `json`, or every problem found, each naming its path in the pack. `imageExists` checks step
    /// images against the pack's folder; nil for uploads, which have none.
    public func validate(_ json: [UInt8], owner: String, imageExists: ((String) -> Bool)?) throws(ValidationError) -> ExercisePack {
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
        problems += catalog.clashes(of: pack, owner: owner)
        if problems.isEmpty { problems = scorer.scriptProblems(in: pack) }
        if !problems.isEmpty { throw ValidationError(problems) }
        return pack
    }

    /// Stores a checked pack and makes it the version trainers see.
    public func save(_ pack: ExercisePack, owner: String, at now: Date) async throws -> ExercisePackSaveOutcome {
        let outcome = try await store.exercisePacks.save(pack, owner: owner, at: now)
        if outcome == .imported { try await catalog.reload(from: store.exercisePacks) }
        return outcome
    }
}

extension ExercisePackImport {
    /// A pack file that cannot be imported: start-up stops with this, naming the file and each path inside it.
    public struct FileError: Error, CustomStringConvertible {
        public let file: String
        public let problems: [FieldError]
        public var description: String { "\(file): " + problems.map(\.description).joined(separator: "; ") }
    }

    /// Imports `path` (one pack file, or every `*.json` in a folder) for `owner`, all or nothing per file, reporting
    /// each file's outcome through `progress`. A file that fails throws, naming it; earlier files stay imported.
    public func importFiles(at path: URL, owner: String, at now: Date, progress: (String, ExercisePackSaveOutcome) -> Void) async throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else {
            throw FileError(file: path.path, problems: [FieldError("", "does not exist")])
        }
        let files =
            isFolder.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: path.path).filter { $0.hasSuffix(".json") }.sorted().map(
                path.appendingPathComponent
            )
            : [path]
        for file in files {
            let folder = file.deletingLastPathComponent()
            let imageExists = { (image: String) in
                ExercisePackCheck.isSafeImagePath(image) && FileManager.default.fileExists(atPath: folder.appendingPathComponent(image).path)
            }
            let pack: ExercisePack
            do {
                pack = try validate(Array(try Data(contentsOf: file)), owner: owner, imageExists: imageExists)
            } catch let error as ValidationError {
                throw FileError(file: file.lastPathComponent, problems: error.errors)
            }
            let outcome = try await save(pack, owner: owner, at: now)
            if case .versionConflict(let latest) = outcome {
                throw FileError(
                    file: file.lastPathComponent,
                    problems: [FieldError("version", "version \(latest) is stored with other content; raise the version above \(latest)")]
                )
            }
            progress(file.lastPathComponent, outcome)
        }
    }
}
