import Foundation
import HealthwheelCore
import NIOCore
import Services
import Synchronization

/// The OpenAPI document served at `/openapi.yaml`: the one shipped inside the API module, with the schemas the
/// loaded questionnaires and shipped exercises decide (`OpenAPICatalog`) added to its `components.schemas`.
final class OpenAPIDocument: Sendable {
    let exercises: ExerciseCatalog
    let questionnaires: QuestionnaireCatalog
    /// The document as last rendered, with the catalog generation it was rendered from: the route is public, so
    /// it answers from this and renders again only after a pack import moved the catalog.
    private let rendering = Mutex<(generation: Int, document: ByteBuffer)?>(nil)

    init(exercises: ExerciseCatalog, questionnaires: QuestionnaireCatalog) {
        self.exercises = exercises
        self.questionnaires = questionnaires
    }

    /// The shipped text, whose last section is `components.schemas`.
    static let base: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.yaml is missing from the API module's resources")
        }
        return String(decoding: data, as: UTF8.self)
    }()

    /// The whole document as the catalog stands now.
    func rendered() -> ByteBuffer {
        let (shipped, generation) = exercises.shippedExercises()
        if let kept = rendering.withLock({ $0 }), kept.generation == generation { return kept.document }
        let generated = OpenAPICatalog.yamlLines(exercises: shipped, questionnaires: Array(questionnaires.questionnaires.values))
        let base = Self.base.hasSuffix("\n") ? Self.base : Self.base + "\n"
        let document = ByteBuffer(string: base + generated)
        rendering.withLock { $0 = (generation, document) }
        return document
    }
}
