import Foundation

/// The words of a report in one language, from `Resources/<language>.json`. A key missing from a language falls
/// back to English, so a half-translated file still gives a whole report (and a test names what is missing).
public struct ReportStrings: Sendable {
    /// The language the strings are in (`en`, `es`): English when the one asked for has no file.
    public let language: String
    private let strings: [String: String]
    private let english: [String: String]

    /// Languages a report can be written in: one resource file each.
    public static let languages = ["en", "es"]

    /// Every language's strings, read from the resources once, on first use: reports ask for them per request.
    private static let loaded: Result<[String: [String: String]], any Error> = Result {
        Dictionary(uniqueKeysWithValues: try languages.map { ($0, try load($0)) })
    }

    /// The strings of `language`, or English when there is no such language.
    public init(language: String) throws {
        let all = try Self.loaded.get()
        let chosen = Self.languages.contains(language) ? language : "en"
        self.language = chosen
        english = all["en"] ?? [:]
        strings = all[chosen] ?? english
    }

    init(language: String, strings: [String: String], english: [String: String]) {
        self.language = language
        self.strings = strings
        self.english = english
    }

    /// The text for `key` with each `{name}` replaced by its argument, in one pass over the text: an argument is
    /// what people typed (a name, a goal), and a `{…}` in it is kept as typed, never replaced in turn.
    public func text(_ key: String, _ arguments: [String: String] = [:]) -> String {
        let template = strings[key] ?? english[key] ?? key
        guard !arguments.isEmpty else { return template }
        var text = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { return text + rest[open...] }
            let name = String(rest[rest.index(after: open)..<close])
            text += arguments[name] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return text + rest
    }

    /// The keys English has and `language` lacks.
    public static func missingKeys(in language: String) throws -> [String] {
        let english = try load("en")
        let other = try load(language)
        return english.keys.filter { other[$0] == nil }.sorted()
    }

    static func load(_ language: String) throws -> [String: String] {
        guard let url = Bundle.module.url(forResource: language, withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(language).json"])
        }
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    }
}
