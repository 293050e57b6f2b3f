import Credentials
import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Mustache
import NIOCore
import Reports
import Services

/// Renders the console's pages: Mustache templates (`Resources/templates`, each page filling the blocks of
/// `layout`) over the page's content and its frame (who is signed in, the CSRF token), in the reader's language.
/// Templates are loaded once per language, at start-up, with their words written in; a broken one stops it.
struct PageRenderer: Sendable {
    /// The templates of each language, its words written in.
    private let libraries: [String: MustacheLibrary]
    private let strings: [String: ConsoleStrings]
    /// How each language writes dates, scores and measurements in each system of units, made once.
    private let formats: [String: ReportFormat]
    let assets: ConsoleAssets
    /// Pages as rendered, split where the CSRF token goes, by the fingerprint of their view (32 MiB at most).
    private let rendered = MemoryLimitedCache<[String]>(limit: 32 << 20)

    init() throws {
        guard let templates = Bundle.module.url(forResource: "templates", withExtension: nil),
            let words = Bundle.module.url(forResource: "strings", withExtension: nil)
        else { throw ConsoleSetupError("the console's templates or strings are missing from the build") }
        strings = try Dictionary(uniqueKeysWithValues: ConsoleStrings.languages.map { ($0, try ConsoleStrings(language: $0, folder: words)) })
        let files = try FileManager.default.contentsOfDirectory(at: templates, includingPropertiesForKeys: nil).filter {
            $0.pathExtension == "mustache"
        }
        var libraries: [String: MustacheLibrary] = [:]
        for (language, words) in strings {
            var library = MustacheLibrary()
            for file in files {
                let source = try String(contentsOf: file, encoding: .utf8)
                do {
                    library.register(try MustacheTemplate(string: Self.inWords(source, words)), named: file.deletingPathExtension().lastPathComponent)
                } catch {
                    throw ConsoleSetupError("console template \(file.lastPathComponent) does not parse: \(error)")
                }
            }
            libraries[language] = library
        }
        self.libraries = libraries
        var formats: [String: ReportFormat] = [:]
        for language in ConsoleStrings.languages {
            for units in Theme.Units.allCases {
                formats[language + "-" + units.rawValue] = ReportFormat(strings: try ReportStrings(language: language), units: units)
            }
        }
        self.formats = formats
        assets = try ConsoleAssets()
    }

    /// A template with each `{{t.key}}` replaced by its words, escaped: the words are the same on every page of a
    /// language, so they are looked up once, at start-up, not on every render.
    static func inWords(_ source: String, _ words: ConsoleStrings) throws -> String {
        let pattern = try Regex(#"\{\{t\.([A-Za-z0-9_.]+)\}\}"#)
        return source.replacing(pattern) { match in
            let key = String(match.output[1].substring ?? "")
            return MarkupText.escaped(words.text(key))
        }
    }

    /// Dates, scores and measurements as `language` writes them, in `units`.
    func format(_ language: String, _ units: Theme.Units) -> ReportFormat {
        formats[language + "-" + units.rawValue] ?? formats["en-" + units.rawValue]!
    }

    func strings(_ language: String) -> ConsoleStrings {
        strings[language] ?? strings["en"]!
    }

    /// The page `template` shows `content` in `frame`, as an HTML response. Every template sees `frame`, `assets`
    /// and the page's own `content`; its words (`{{t.…}}`) were written in when it was loaded. A page is kept
    /// once rendered, under the fingerprint of its template, language and view: the same view is not rendered
    /// twice, and any change to what it shows is another view. The session's CSRF token is put in afterwards, so
    /// that sessions share pages (a page shows who is signed in, and is theirs alone). `cacheable: false` for a
    /// page that differs on every request (the sign-in form, with a fresh token of its own).
    func page(
        _ template: String,
        _ content: some Any,
        frame: PageFrame,
        status: HTTPResponse.Status = .ok,
        cacheable: Bool = true
    ) throws -> Response {
        var data = ViewData()
        let view = self.view(content, frame: frame, into: &data)
        let key = cacheable ? template + "/" + frame.language + "/" + data.fingerprint : nil
        return try response(key.flatMap(rendered.get) ?? render(template, view, frame: frame, keptAs: key), frame: frame, status: status)
    }

    /// The page `template` shows in `frame`, kept under `inputs`: everything its content is made from (versions,
    /// the query), so a page seen again is neither made nor rendered again. `content` makes it when it is not kept.
    /// Inputs must name everything the content depends on; the frame is added to them here.
    func page<Content>(
        _ template: String,
        frame: PageFrame,
        inputs: String,
        status: HTTPResponse.Status = .ok,
        content: () async throws -> Content
    ) async throws -> Response {
        var shown = ViewData()
        _ = shown.box(Self.withMarker(frame))
        let key = template + "/" + frame.language + "/" + shown.fingerprint + "/" + inputs
        if let kept = rendered.get(key) { return response(kept, frame: frame, status: status) }
        var data = ViewData()
        let view = self.view(try await content(), frame: frame, into: &data)
        return try response(render(template, view, frame: frame, keptAs: key), frame: frame, status: status)
    }

    /// Inputs as one key, each part after its length: parts hold readers' text, so no separator alone keeps two
    /// apart.
    static func inputs(_ parts: [String]) -> String {
        parts.map { "\($0.utf8.count):\($0)" }.joined()
    }

    private func view(_ content: some Any, frame: PageFrame, into data: inout ViewData) -> [String: Any] {
        [
            "frame": data.box(Self.withMarker(frame)) ?? [:],
            "assets": ["css": assets.css, "js": assets.js, "icon": assets.icon],
            "content": data.box(content) ?? [:],
        ]
    }

    /// The frame with the marker where the session's CSRF token goes.
    private static func withMarker(_ frame: PageFrame) -> PageFrame {
        var shown = frame
        shown.csrf = csrfMarker
        return shown
    }

    /// The page rendered, split where the CSRF token goes, and kept under `key` if given.
    private func render(_ template: String, _ view: [String: Any], frame: PageFrame, keptAs key: String?) throws -> [String] {
        guard let library = libraries[frame.language] ?? libraries["en"], let html = library.render(view, withTemplate: template) else {
            throw ConsoleSetupError("no console template \(template)")
        }
        let parts = html.components(separatedBy: Self.csrfMarker)
        if let key { rendered.put(key, parts, cost: html.utf8.count + key.utf8.count + 64) }
        return parts
    }

    private func response(_ parts: [String], frame: PageFrame, status: HTTPResponse.Status) -> Response {
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .contentLanguage: frame.language, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: parts.joined(separator: frame.csrf)))
        )
        response.headers[.vary] = "Accept-Language, Cookie"
        return response
    }

    /// Stands for the session's CSRF token in a kept page: random per process, so no text a page shows can hold it.
    private static let csrfMarker = "csrf-" + SecureRandom.hex(16)

    /// Drops every kept page: after an erasure, nothing of the person may stay in memory.
    func forgetPages() {
        rendered.forget { _ in true }
    }
}

/// What the layout shows around every page.
struct PageFrame: Sendable {
    /// `en` or `es`: the `lang` of the page and the words it is in.
    var language: String
    /// The page's title (in the tab and the heading).
    var title: String
    /// Who is signed in; nil on the sign-in page.
    var trainer: SignedInTrainer?
    /// The session's CSRF token, put in every form.
    var csrf: String
    /// The company theme's stylesheet (`/theme.css?v=…`), when someone is signed in.
    var themeStylesheet: String?
    /// Which navigation entry is the current page: `["clients": true]`.
    var current: [String: Bool] = [:]
    /// A message for what the previous request did ("Client saved."), shown once.
    var notice: String?

    /// The signed-in trainer as the layout names them.
    struct SignedInTrainer: Sendable {
        var name: String
        var company: String
        var isAdmin: Bool
    }
}
