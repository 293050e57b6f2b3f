import Foundation
import HTTPTypes
import HealthwheelCore
import HummingbirdTesting
import TestSupport
import Testing

@testable import Console

/// The use cases' refusals in the reader's language: the Spanish file holds every phrase the code writes, and a
/// Spanish page shows a refusal in Spanish.
@Suite struct ConsoleRefusalTests {
    static let folder = RepositoryRoot.url.appendingPathComponent("Sources/Console/Resources/strings/refusals")

    @Test func everyRefusalTheCodeWritesHasASpanishLine() throws {
        let spanish = try RefusalTranslation(language: "es", folder: Self.folder)
        let written = try RefusalPhrases.written()
        #expect(written.count > 200, "the scan finds the refusals (\(written.count))")
        #expect(written.contains("is required to complete the screening") && written.contains("must be at most {} characters"))
        let missing = written.subtracting(spanish.phrases)
        #expect(missing.isEmpty, "phrases without Spanish: \(missing.sorted())")
        // And none the code no longer writes: each is still a string in the sources.
        let literals = try RefusalPhrases.literals()
        let stale = spanish.phrases.subtracting(literals)
        #expect(stale.isEmpty, "Spanish for phrases the code no longer writes: \(stale.sorted())")
    }

    @Test func aPhrasesPartsAreKeptOrTranslatedAndPutWhereTheLanguageWantsThem() throws {
        let spanish = try RefusalTranslation(language: "es", folder: Self.folder)
        #expect(spanish.translate("must be at most 200 characters") == "debe tener como máximo 200 caracteres")
        #expect(spanish.translate("must be at most 2000 characters") == "debe tener como máximo 2000 caracteres")
        #expect(spanish.translate("must be at most 7") == "debe ser como máximo 7")
        #expect(spanish.translate("no client with this id") == "no hay ningún cliente con este id", "a part that is a word of the file")
        #expect(
            spanish.translate("is too close to categoryColours.strength (#112233 and #112234)")
                == "se parece demasiado a categoryColours.strength (#112233 y #112234)"
        )
        #expect(
            spanish.translate("not saved: email: is not a valid email address") == "no guardado: email: no es una dirección de correo válida",
            "phrases nest"
        )
        #expect(spanish.translate("a phrase nobody wrote") == "a phrase nobody wrote", "unknown: as the use case wrote it")
        #expect(spanish.translate("client") == "client", "a word alone is not a phrase")
        #expect(RefusalTranslation.english.translate("must be a number") == "must be a number")
        let reordered = RefusalTranslation(phrases: ["{} before {}": "{2} después de {1}"], words: [:])
        #expect(reordered.translate("a before b") == "b después de a")
        #expect(reordered.translate("{2} before x") == "x después de {2}", "a part is written in once, never filled in again")
    }

    @Test func aSpanishPageShowsTheRefusalsInSpanish() async throws {
        try await withAPI { fixture, client in
            let company = try await fixture.company()
            let admin = try await fixture.trainer(in: company, role: .admin)
            let session = try #require(try await client.signIn(admin.email, admin.password).session)
            let spanish: HTTPFields = [.acceptLanguage: "es"]
            let refused = try await client.page(
                .post,
                "/clients",
                cookie: session.cookie,
                form: [("csrf", session.csrf), ("givenName", "Ana"), ("email", "no es un correo"), ("heightCm", "alta")],
                headers: spanish
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("no es una dirección de correo válida") && refused.text.contains("debe ser un número"), "\(refused.text)")
            #expect(!refused.text.contains("is not a valid email address") && !refused.text.contains("must be a number"))

            // A refusal that is a page of its own: a result before the client's screening is completed.
            let clientId = try await client.createClient(given: "Sin", family: "Evaluación", token: try await client.token(for: admin))
            let gated = try await client.page(
                .post,
                "/clients/\(clientId)/results",
                cookie: session.cookie,
                form: [("csrf", session.csrf), ("exercise", "push-ups"), ("value-count", "20")],
                headers: spanish
            )
            #expect(gated.status == .conflict, "\(gated.status)")
            #expect(gated.text.contains("este cliente aún no tiene una evaluación completada"), "\(gated.text)")
            // Once screened, a value that is not a number: named by its label, in Spanish.
            let screened = try await client.screenedClient(token: try await client.token(for: admin))
            let notANumber = try await client.page(
                .post,
                "/clients/\(screened)/results",
                cookie: session.cookie,
                form: [("csrf", session.csrf), ("exercise", "push-ups"), ("value-count", "veinte")],
                headers: spanish
            )
            #expect(notANumber.status == .unprocessableContent)
            #expect(notANumber.text.contains("debe ser un número") && !notANumber.text.contains("values.count"), "\(notANumber.text)")
            let english = try await client.page(.get, "/clients/\(UUID().uuidString.lowercased())", cookie: session.cookie)
            #expect(english.status == .notFound && !english.text.contains("ningún"))
        }
    }
}

/// The refusal phrases the sources write, read from the Swift files of the layers whose refusals reach a page
/// (the domain, the use cases, the API, the media workers, the console itself): the English text of each message, detail and reason
/// given to a refusal, its interpolations written `{}`, as `RefusalTranslation`'s files key them.
enum RefusalPhrases {
    static let folders = ["HealthwheelCore", "Services", "API", "Media", "Console"]
    /// What takes a refusal's words: its initialisers and cases, then the labels of its words.
    static let calls = [
        "FieldError(", "ValidationError(", "add(", ".invalid(", "unknownReference(", ".forbidden(", ".conflict(",
        ".tooManyRequests(", ".limited(", ".tooLarge(", ".unsupportedType(", ".storageFull(", ".absent(", "PictureProblem(",
        ".refused(", "notes.append(",
    ]
    static let labels = ["detail:", "message:", "reason:", "reason =", "problem ="]

    /// Every phrase written as a refusal's words.
    static func written() throws -> Set<String> {
        var phrases: Set<String> = []
        let firsts = Set((calls + labels).compactMap(\.unicodeScalars.first))
        for source in try sources() {
            let text = Array(source.unicodeScalars)
            var index = 0
            while index < text.count {
                if !firsts.contains(text[index]) {
                    index += 1
                } else if let call = calls.first(where: { starts(text, at: index, with: $0) && !isIdentifier(text, before: index, call: $0) }) {
                    // The call's top-level literals that are words (a field's name is one word, without a space);
                    // several when it picks one (`cond ? "must not be after now" : "must not be before …"`).
                    phrases.formUnion(topLevelLiterals(text, from: index + call.unicodeScalars.count).filter(isPhrase))
                    index += call.unicodeScalars.count
                } else if let label = labels.first(where: { starts(text, at: index, with: $0) && !isIdentifier(text, before: index, call: $0) }) {
                    var next = index + label.unicodeScalars.count
                    while next < text.count, text[next] == " " { next += 1 }
                    if next < text.count, text[next] == "\"", let (literal, _) = literal(text, at: next), isPhrase(literal) {
                        phrases.insert(literal)
                    }
                    index = next
                } else {
                    index += 1
                }
            }
        }
        return phrases
    }

    /// Every string literal of those sources (a phrase the Spanish file keeps must still be one of them).
    static func literals() throws -> Set<String> {
        var all: Set<String> = []
        for source in try sources() {
            let text = Array(source.unicodeScalars)
            var index = 0
            while index < text.count {
                if text[index] == "\"", let (found, end) = literal(text, at: index) {
                    all.insert(found)
                    index = end
                } else {
                    index += 1
                }
            }
        }
        return all
    }

    private static func sources() throws -> [String] {
        try folders.flatMap { folder -> [String] in
            let root = RepositoryRoot.url.appendingPathComponent("Sources/\(folder)")
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            return try files.filter { $0.pathExtension == "swift" }.map { try String(contentsOf: $0, encoding: .utf8) }
        }
    }

    /// Words, not a key or a bare interpolation: a letter outside the `{}` and a space.
    private static func isPhrase(_ literal: String) -> Bool {
        literal.contains(" ") && literal.replacingOccurrences(of: "{}", with: "").contains { $0.isLetter }
    }

    private static func starts(_ text: [Unicode.Scalar], at index: Int, with word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        return index + scalars.count <= text.count && Array(text[index..<index + scalars.count]) == scalars
    }

    /// `add(` inside `isAdded(`, or `reason:` inside `failureReason:`: a longer name, not the call.
    private static func isIdentifier(_ text: [Unicode.Scalar], before index: Int, call: String) -> Bool {
        guard index > 0, let first = call.unicodeScalars.first, first != "." else { return false }
        let previous = text[index - 1]
        return CharacterSet.alphanumerics.contains(previous) || previous == "_"
    }

    /// The string literals at the top level of a call's arguments, from just after its `(` to its `)`.
    private static func topLevelLiterals(_ text: [Unicode.Scalar], from start: Int) -> [String] {
        var depth = 1
        var index = start
        var found: [String] = []
        while index < text.count, depth > 0 {
            let scalar = text[index]
            if scalar == "\"" {
                guard let (literal, end) = literal(text, at: index) else { return found }
                if depth == 1 { found.append(literal) }
                index = end
                continue
            }
            if scalar == "(" || scalar == "[" { depth += 1 }
            if scalar == ")" || scalar == "]" { depth -= 1 }
            index += 1
        }
        return found
    }

    /// The one-line literal starting at `index` (its `"`), its interpolations written `{}`, and the index after it;
    /// nil for a multi-line literal.
    private static func literal(_ text: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        if starts(text, at: start, with: "\"\"\"") { return nil }
        var index = start + 1
        var result = ""
        while index < text.count {
            let scalar = text[index]
            switch scalar {
            case "\"": return (result, index + 1)
            case "\n": return nil
            case "\\":
                guard index + 1 < text.count else { return nil }
                let escaped = text[index + 1]
                if escaped == "(" {
                    // An interpolation: to its closing parenthesis, over any literals inside it.
                    var depth = 1
                    index += 2
                    while index < text.count, depth > 0 {
                        if text[index] == "\"" {
                            guard let (_, end) = literal(text, at: index) else { return nil }
                            index = end
                            continue
                        }
                        if text[index] == "(" { depth += 1 }
                        if text[index] == ")" { depth -= 1 }
                        index += 1
                    }
                    result += "{}"
                    continue
                }
                switch escaped {
                case "n": result += "\n"
                case "t": result += "\t"
                default: result.unicodeScalars.append(escaped)
                }
                index += 2
            default:
                result.unicodeScalars.append(scalar)
                index += 1
            }
        }
        return nil
    }
}
