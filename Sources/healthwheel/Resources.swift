import Foundation

/// The data folders shipped with the server (`Migrations/`, `Exercises/`, `Questionnaires/`, `Themes/`).
/// Found at `$HEALTHWHEEL_RESOURCES_DIR`, else in the working directory, else next to or above the executable
/// (so `.build/release/healthwheel` finds the checkout's folders).
struct Resources {
    let root: URL

    var migrations: URL { root.appendingPathComponent("Migrations") }
    var exercises: URL { root.appendingPathComponent("Exercises") }
    var questionnaires: URL { root.appendingPathComponent("Questionnaires") }
    var themes: URL { root.appendingPathComponent("Themes") }

    struct NotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "cannot find the Migrations folder; set HEALTHWHEEL_RESOURCES_DIR (looked in: \(searched.joined(separator: ", ")))"
        }
    }

    static func locate() throws -> Resources {
        var candidates: [URL] = []
        if let explicit = Environment.value("HEALTHWHEEL_RESOURCES_DIR") { candidates.append(URL(fileURLWithPath: explicit)) }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        for candidate in candidates {
            var isFolder: ObjCBool = false
            let migrations = candidate.appendingPathComponent("Migrations").path
            if FileManager.default.fileExists(atPath: migrations, isDirectory: &isFolder), isFolder.boolValue {
                return Resources(root: candidate.standardizedFileURL)
            }
        }
        throw NotFound(searched: candidates.map(\.path))
    }
}
