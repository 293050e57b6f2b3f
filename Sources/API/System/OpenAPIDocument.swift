import Foundation
import HealthwheelCore
import NIOCore
import Services

/// The OpenAPI document served at `/openapi.yaml`: the one shipped inside the API module, with the schemas the
/// loaded questionnaires and shipped exercises decide (`OpenAPICatalog`) added to its `components.schemas`.
struct OpenAPIDocument: Sendable {
    let exercises: ExerciseCatalog
    let questionnaires: QuestionnaireCatalog

    /// The shipped text, whose last section is `components.schemas`.
    static let base: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.yaml is missing from the API module's resources")
        }
        return String(decoding: data, as: UTF8.self)
    }()

    /// The whole document as it stands now; rendered per request, as it is asked for rarely and packs may change.
    func rendered() -> ByteBuffer {
        let generated = OpenAPICatalog.yamlLines(
            exercises: exercises.shippedExercises(),
            questionnaires: Array(questionnaires.questionnaires.values)
        )
        let base = Self.base.hasSuffix("\n") ? Self.base : Self.base + "\n"
        return ByteBuffer(string: base + generated)
    }
}
