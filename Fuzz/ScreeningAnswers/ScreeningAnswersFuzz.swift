import Foundation
import FuzzSupport
import HealthwheelCore

/// The shipped questionnaire, read once.
let questionnaire = try! JSONDecoder().decode(
    Questionnaire.self,
    from: Data(contentsOf: repositoryRoot.appendingPathComponent("Questionnaires/screening.json"))
)
let start = Date(timeIntervalSince1970: 1_800_000_000)

/// Any bytes as a screening's `answers`: applied to a new draft, then (when accepted) completed and edited again
/// once locked, as the API does.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let answers = FuzzInput(data, size).decoded([String: JSONValue].self) else { return 0 }
    let draft = Screening(clientId: UUID(), questionnaire: questionnaire, answers: [:], createdAt: start, createdBy: nil)
    guard let outcome = try? ScreeningRules.apply(answers, to: draft, questionnaire: questionnaire, by: nil, at: start) else { return 0 }
    _ = ScreeningRules.flags(for: outcome.screening.answers, in: questionnaire)
    if let completed = try? ScreeningRules.complete(outcome.screening, questionnaire: questionnaire, by: nil, at: start) {
        _ = try? ScreeningRules.apply(answers, to: completed, questionnaire: questionnaire, by: nil, at: start)
    }
    return 0
}

@_cdecl("fuzz_screeninganswers_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt { runFuzzer(argc, argv) }
