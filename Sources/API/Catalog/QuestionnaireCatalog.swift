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

extension DecodingError {
    /// "sections[1].fields[0].type: …" — where in the file, and what is wrong there.
    var locatedDescription: String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { result, key in
                if let index = key.intValue { return result + "[\(index)]" }
                return result.isEmpty ? key.stringValue : result + "." + key.stringValue
            }
        }
        switch self {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])): is required"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)): must not be null"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)): expected \(type)"
        case .dataCorrupted(let context):
            let place = path(context.codingPath)
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return (place.isEmpty ? "" : place + ": ") + (underlying ?? context.debugDescription)
        @unknown default: return "\(self)"
        }
    }
}
