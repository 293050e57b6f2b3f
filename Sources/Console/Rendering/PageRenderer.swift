import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Renders the console's pages: Mustache templates (`Resources/templates`, each page filling the blocks of
/// `layout`) over the page's content and its frame (words, who is signed in, the CSRF token). Templates are
/// loaded once, at start-up; a broken one stops it.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    private let strings: [String: ConsoleStrings]
    let assets: ConsoleAssets

    init() throws {
        guard let templates = Bundle.module.url(forResource: "templates", withExtension: nil),
            let words = Bundle.module.url(forResource: "strings", withExtension: nil)
        else { throw ConsoleSetupError("the console's templates or strings are missing from the build") }
        var library = MustacheLibrary()
        let files = try FileManager.default.contentsOfDirectory(at: templates, includingPropertiesForKeys: nil)
        for file in files where file.pathExtension == "mustache" {
            do {
                library.register(try MustacheTemplate(string: String(contentsOf: file, encoding: .utf8)), named: file.deletingPathExtension().lastPathComponent)
            } catch {
                throw ConsoleSetupError("console template \(file.lastPathComponent) does not parse: \(error)")
            }
        }
        self.library = library
        strings = try Dictionary(uniqueKeysWithValues: ConsoleStrings.languages.map { ($0, try ConsoleStrings(language: $0, folder: words)) })
        assets = try ConsoleAssets()
    }

    func strings(_ language: String) -> ConsoleStrings {
        strings[language] ?? strings["en"]!
    }

    /// The page `template` shows `content` in `frame`, as an HTML response.
    func page(_ template: String, _ content: some Any, frame: PageFrame, status: HTTPResponse.Status = .ok) throws -> Response {
        let view = PageView(t: strings(frame.language).tree, frame: frame, assets: assets, content: content)
        guard let html = library.render(view, withTemplate: template) else { throw ConsoleSetupError("no console template \(template)") }
        var response = Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .contentLanguage: frame.language, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
        response.headers[.vary] = "Accept-Language, Cookie"
        return response
    }
}

/// What every page's template sees: `t` (the words), `frame`, `assets` and the page's own `content`.
private struct PageView<Content> {
    let t: [String: Any]
    let frame: PageFrame
    let assets: ConsoleAssets
    let content: Content
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
