import Foundation
import HealthwheelCore

/// The themes shipped in `Themes/`, with their logos, loaded and checked once at start-up.
public struct ThemeCatalog: Sendable {
    /// A shipped theme and its logo's PNG bytes, if it has one.
    public struct Entry: Sendable, Equatable {
        /// The theme as parsed and checked (contrast, fonts, keys).
        public var theme: Theme
        /// The PNG named by the theme's `logo`, read from beside its file; nil when it names none.
        public var logo: [UInt8]?
    }

    /// By theme id; a catalog from `load(from:)` always holds `default`.
    public let entries: [String: Entry]

    /// The theme of a company that has not picked one.
    public static let defaultId = "default"
    /// A logo larger than this is refused, shipped or uploaded: it is embedded in every report and email.
    public static let maximumLogoBytes = 1 << 20

    /// A catalog of `entries` by theme id (the first wins for a repeated id); `load(from:)` is the checked way in.
    public init(_ entries: [Entry]) {
        self.entries = Dictionary(entries.map { ($0.theme.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The shipped theme with `id`, or nil when there is none.
    public subscript(id: String) -> Entry? { entries[id] }

    /// A broken file stops start-up with a message naming the file and the key.
    public struct LoadError: Error, CustomStringConvertible {
        /// The file at fault (or the folder, when the folder is missing or has no default theme).
        public let file: String
        /// Each problem as `key: message`, as `Theme.parse` names them.
        public let problems: [String]
        /// `file: problem; problem`, for the operator's console.
        public var description: String { "\(file): " + problems.joined(separator: "; ") }
    }

    /// Reads every `*.json` in `directory` and the logo each names beside it; one must have the id `default`.
    public static func load(from directory: URL) throws -> ThemeCatalog {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw LoadError(file: directory.path, problems: ["there is no such folder of themes"])
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var loaded: [Entry] = []
        var fileOf: [String: String] = [:]
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            let document: JSONValue
            do {
                document = try JSONDecoder().decode(JSONValue.self, from: data)
            } catch {
                throw LoadError(file: file, problems: ["is not valid JSON"])
            }
            let theme: Theme
            do {
                theme = try Theme.parse(document)
            } catch {
                throw LoadError(file: file, problems: error.errors.map(\.description))
            }
            if let other = fileOf[theme.id] { throw LoadError(file: file, problems: ["id: '\(theme.id)' is already used by \(other)"]) }
            fileOf[theme.id] = file
            var logo: [UInt8]?
            if let name = theme.logo {
                guard let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map(Array.init) else {
                    throw LoadError(file: file, problems: ["logo: \(name) is not beside the theme"])
                }
                if let problem = logoProblem(bytes) { throw LoadError(file: file, problems: ["logo: \(name) \(problem)"]) }
                logo = bytes
            }
            loaded.append(Entry(theme: theme, logo: logo))
        }
        guard fileOf[defaultId] != nil else {
            throw LoadError(file: directory.lastPathComponent, problems: ["no theme has the id '\(defaultId)'"])
        }
        return ThemeCatalog(loaded)
    }

    /// Why `bytes` cannot be a theme's logo, or nil when they can: a PNG of at most 1 MiB whose header is sound
    /// and within `PictureLimit.logo`. Reads the header only; whether it decodes is seen when it is decoded.
    public static func logoProblem(_ bytes: [UInt8]) -> String? {
        if let problem = logoFileProblem(bytes) { return problem }
        do {
            _ = try PictureLimit.logo.header(of: bytes)
        } catch {
            return error.reason
        }
        return nil
    }

    /// Why `bytes` cannot be a logo by their signature and size alone (nothing of the picture is read): what an
    /// upload is checked for before a media worker reads it.
    static func logoFileProblem(_ bytes: [UInt8]) -> String? {
        if ImageSignature.contentType(of: bytes) != "image/png" { return "is not a PNG image" }
        if bytes.count > maximumLogoBytes { return "is larger than 1 MiB" }
        return nil
    }
}
