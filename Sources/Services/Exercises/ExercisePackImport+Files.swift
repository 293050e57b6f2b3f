import Foundation
import HealthwheelCore
import StoreContract

extension ExercisePackImport {
    /// A pack file that cannot be imported: the import stops with this, naming the file and each path inside it.
    public struct FileError: Error, CustomStringConvertible {
        /// The file's path as given (or the folder's, when it does not exist).
        public let file: String
        /// Each problem, named by its path inside the pack (`exercises[2].examples[0].score`).
        public let problems: [FieldError]
        /// `file: path: message; …`, for the operator's console.
        public var description: String { "\(file): " + problems.map(\.description).joined(separator: "; ") }
    }

    /// Reads and checks `path` (one pack file, or every `*.json` in a folder) without a database, so start-up can
    /// refuse a broken shipped pack before opening one. Two files may not share a category or exercise id.
    public static func readFiles(at path: URL, scorer: ExerciseScorer) async throws -> [ExercisePackFile] {
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
                pack = try await check(Array(try Data(contentsOf: url)), imageExists: imageExists, scorer: scorer)
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
        // A company's packs are the operator's act for that company; the shipped ones are no company's.
        let audit = UUID(uuidString: owner).map { company in
            { (pack: ExercisePack) in
                AuditEvent.company(.created, .pack, id: "\(pack.id)@\(pack.version)", in: company, by: .operatorCommand, at: now)
            }
        }
        let outcomes = try await save(files.map(\.pack), owner: owner, at: now, audit: audit)
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
