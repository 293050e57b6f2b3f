import Foundation
import HealthwheelCore

/// The screening questionnaires shipped in `Questionnaires/`, loaded and checked once at start-up.
public struct QuestionnaireCatalog: Sendable {
    /// By questionnaire id (`screening`); screenings name theirs by it.
    public let questionnaires: [String: Questionnaire]

    /// A catalog of `questionnaires` by id (the first wins for a repeated id); `load(from:)` is the checked way in.
    public init(_ questionnaires: [Questionnaire]) {
        self.questionnaires = Dictionary(questionnaires.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A broken file stops start-up with a message naming the file and the place inside it.
    public struct LoadError: Error, CustomStringConvertible {
        /// The file at fault, as named in the folder.
        public let file: String
        /// Each problem as `path: message` (`sections[1].fields[0].key: …`), or the decoder's located message.
        public let problems: [String]
        /// `file: problem; problem`, for the operator's console.
        public var description: String { "\(file): " + problems.joined(separator: "; ") }
    }

    /// Reads every `*.json` in `directory`.
    public static func load(from directory: URL) throws -> QuestionnaireCatalog {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var loaded: [Questionnaire] = []
        var fileOf: [String: String] = [:]
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            let questionnaire: Questionnaire
            do {
                questionnaire = try JSONDecoder().decode(Questionnaire.self, from: data)
            } catch let error as DecodingError {
                throw LoadError(file: file, problems: [error.locatedDescription])
            }
            let problems =
                QuestionnaireCheck.unknownKeys(in: try JSONDecoder().decode(JSONValue.self, from: data))
                + QuestionnaireCheck.problems(in: questionnaire)
            if !problems.isEmpty { throw LoadError(file: file, problems: problems) }
            if let other = fileOf[questionnaire.id] {
                throw LoadError(file: file, problems: ["id: '\(questionnaire.id)' is already used by \(other)"])
            }
            fileOf[questionnaire.id] = file
            loaded.append(questionnaire)
        }
        return QuestionnaireCatalog(loaded)
    }

    /// The questionnaire with `id`, or nil when the server has none by that id.
    public subscript(id: String) -> Questionnaire? { questionnaires[id] }
}
