import API
import Foundation
import HealthwheelCore
import Hummingbird
import Reports

/// The console's words in one language (`Resources/strings/<language>.json`, nested objects of strings): written
/// into the templates at start-up (`{{t.path}}`), and read by the pages' code with `text(_:)`.
struct ConsoleStrings: Sendable {
    /// Languages the console is written in, those reports are written in (a test holds both strings files to the
    /// same keys); English is the fallback.
    static let languages = ReportStrings.languages

    let language: String
    /// Every text by its dotted path (`clients.title`).
    private let texts: [String: String]
    /// The use cases' refusals in this language (`strings/refusals/<language>.json`).
    let refusals: RefusalTranslation

    init(language: String, folder: URL) throws {
        let data = try Data(contentsOf: folder.appendingPathComponent("\(language).json"))
        guard let tree = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ConsoleSetupError("strings/\(language).json is not a JSON object")
        }
        self.language = language
        func walk(_ node: [String: Any], _ prefix: String, into texts: inout [String: String]) {
            for (key, value) in node {
                if let object = value as? [String: Any] {
                    walk(object, prefix + key + ".", into: &texts)
                } else if let text = value as? String {
                    texts[prefix + key] = text
                }
            }
        }
        var texts: [String: String] = [:]
        walk(tree, "", into: &texts)
        self.texts = texts
        refusals = try RefusalTranslation(language: language, folder: folder.appendingPathComponent("refusals"))
    }

    /// The text at a dotted path (`clients.title`), with `{name}` placeholders filled from `values`. A missing
    /// key is a programming error the strings test catches; it shows as the key.
    func text(_ path: String, _ values: [String: String] = [:]) -> String {
        var text = texts[path] ?? path
        for (name, value) in values {
            if let range = text.range(of: "{\(name)}") { text.replaceSubrange(range, with: value) }
        }
        return text
    }

    /// How an admin's logs show a moment: the date and time in UTC, said so, in this language (`time`: to the
    /// minute, or to the second where attempts follow each other closely). Made once per page, used per line.
    func moments(time: Date.FormatStyle.TimeStyle = .shortened) -> @Sendable (Date) -> String {
        let style = Date.FormatStyle(
            date: .abbreviated,
            time: time,
            locale: Locale(identifier: text("locale")),
            timeZone: TimeZone(identifier: "UTC")!
        )
        return { $0.formatted(style) + " UTC" }
    }

    /// The text at a dotted path when there is one: a field's label where some fields have one of their own.
    func label(_ path: String) -> String? {
        texts[path]
    }

    /// A use case's refusal (a problem's detail, a field's message) in this language.
    func refusal(_ message: String) -> String {
        refusals.translate(message)
    }

    /// The refusals of a form's fields in this language, each still naming its field.
    func refusals(_ errors: [FieldError]) -> [FieldError] {
        errors.map { FieldError($0.field, refusals.translate($0.message)) }
    }

    /// Every dotted path that holds a text (the strings test compares the languages' sets).
    var paths: Set<String> { Set(texts.keys) }

    /// The first of the reader's languages (`Accept-Language`) the console is written in, else `fallback` (the
    /// company theme's) when the console has it, else English.
    static func language(accepting header: String?, fallback: String?) -> String {
        if let asked = Request.language(header) { return asked }
        if let fallback, languages.contains(fallback) { return fallback }
        return "en"
    }
}

/// The console's own files are missing or broken: start-up stops.
struct ConsoleSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
