import Foundation

/// The use cases' refusals in the reader's language. Services and the domain word every refusal as an English
/// phrase that follows a field's name ("must be at most 200 characters") or stands alone (a problem's detail);
/// the API sends them as they are, and the console shows them from `strings/refusals/<language>.json`:
/// - `phrases`: each English phrase, its varying parts written `{}`, and its translation, which puts those parts
///   back as `{1}`, `{2}`… (in any order); a part that is itself a phrase or one of the `words` is translated too.
/// - `words`: the few English words that phrases take as parts ("client" in "no client with this id").
///
/// A phrase missing from the file is shown as the use case wrote it; a test holds the file to every phrase the
/// code can produce, and to none it no longer does.
struct RefusalTranslation: Sendable {
    /// One phrase with varying parts: its literal pieces (one more than its parts) and its translation.
    struct Pattern: Sendable {
        let english: String
        let pieces: [String]
        let translation: String

        init(english: String, translation: String) {
            self.english = english
            self.pieces = english.components(separatedBy: "{}")
            self.translation = translation
        }

        /// The varying parts of `message` when it is this phrase, each at least one character long.
        func parts(of message: String) -> [Substring]? {
            guard message.hasPrefix(pieces[0]) else { return nil }
            var rest = message.dropFirst(pieces[0].count)
            var parts: [Substring] = []
            for (index, piece) in pieces.enumerated().dropFirst() {
                if index == pieces.count - 1 {
                    guard rest.hasSuffix(piece), rest.count > piece.count else { return nil }
                    parts.append(rest.dropLast(piece.count))
                    return parts
                }
                // The part runs to the piece's first occurrence after at least one character.
                guard !rest.isEmpty, let found = rest.dropFirst().range(of: piece) else { return nil }
                parts.append(rest[..<found.lowerBound])
                rest = rest[found.upperBound...]
            }
            return nil
        }
    }

    private let exact: [String: String]
    /// Phrases with parts, the longest literal text first, so "must be at most {} characters" is tried before
    /// "must be at most {}".
    private let patterns: [Pattern]
    private let words: [String: String]

    /// English, which the use cases already write.
    static let english = RefusalTranslation(phrases: [:], words: [:])

    init(phrases: [String: String], words: [String: String]) {
        exact = phrases.filter { !$0.key.contains("{}") }
        patterns = phrases.filter { $0.key.contains("{}") }
            .map { Pattern(english: $0.key, translation: $0.value) }
            .sorted { ($0.pieces.joined().count, $0.english) > ($1.pieces.joined().count, $1.english) }
        self.words = words
    }

    /// The file `<language>.json` of `folder`, or English when there is none (English needs no translation).
    init(language: String, folder: URL) throws {
        let file = folder.appendingPathComponent("\(language).json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            self = .english
            return
        }
        struct File: Decodable {
            var phrases: [String: String]
            var words: [String: String]
        }
        do {
            let decoded = try JSONDecoder().decode(File.self, from: Data(contentsOf: file))
            self.init(phrases: decoded.phrases, words: decoded.words)
        } catch {
            throw ConsoleSetupError("strings/refusals/\(language).json: \(error)")
        }
    }

    /// Every English phrase the file translates (the test compares them with the code's).
    var phrases: Set<String> { Set(exact.keys).union(patterns.map(\.english)) }

    /// `message` in this language, or as it is when the file does not know it.
    func translate(_ message: String) -> String {
        translate(message, depth: 0)
    }

    private func translate(_ message: String, depth: Int) -> String {
        // Words stand only inside a phrase: "client" alone is no refusal to translate as "ningún cliente".
        if let translated = exact[message] ?? (depth > 0 ? words[message] : nil) { return translated }
        // A part is translated once more at most: phrases nest one level ("not saved: {}" holds "{}: {}").
        guard depth < 2 else { return message }
        for pattern in patterns {
            guard let parts = pattern.parts(of: message) else { continue }
            let translatedParts = parts.map { translate(String($0), depth: depth + 1) }
            // One pass, so a part that happens to contain "{2}" is not filled in again.
            var translated = ""
            var rest = pattern.translation[...]
            while let open = rest.firstIndex(of: "{") {
                translated += rest[..<open]
                let afterOpen = rest.index(after: open)
                if let close = rest[afterOpen...].firstIndex(of: "}"), let number = Int(rest[afterOpen..<close]),
                    translatedParts.indices.contains(number - 1)
                {
                    translated += translatedParts[number - 1]
                    rest = rest[rest.index(after: close)...]
                } else {
                    translated.append("{")
                    rest = rest[afterOpen...]
                }
            }
            return translated + rest
        }
        return message
    }
}
