import Foundation
import HealthwheelCore

/// The screening questionnaires shipped in `Questionnaires/`, loaded and checked once at start-up.
public struct QuestionnaireCatalog: Sendable {
    public let questionnaires: [String: Questionnaire]

    public init(_ questionnaires: [Questionnaire]) {
        self.questionnaires = Dictionary(questionnaires.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A broken file stops start-up with a message naming the file and the place inside it.
    public struct LoadError: Error, CustomStringConvertible {
        public let file: String
        public let problems: [String]
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
            let problems = QuestionnaireCheck.problems(in: questionnaire)
            if !problems.isEmpty { throw LoadError(file: file, problems: problems) }
            if let other = fileOf[questionnaire.id] {
                throw LoadError(file: file, problems: ["id: '\(questionnaire.id)' is already used by \(other)"])
            }
            fileOf[questionnaire.id] = file
            loaded.append(questionnaire)
        }
        return QuestionnaireCatalog(loaded)
    }

    public subscript(id: String) -> Questionnaire? { questionnaires[id] }
}
