import Credentials
import Cryptography
import Foundation
import HealthwheelCore
import Scoring

/// Runs exercises' conversion scripts in the shared pool of scoring workers, in the domain's terms.
public struct ExerciseScorer: Sendable {
    /// The pool of scoring worker processes every script runs in (docs/ARCHITECTURE.md §3); started once by `serve`.
    public let workers: ScoringWorkers

    /// The examples of one pack (and its compile checks) may run this long in all: a pack cannot hold a worker
    /// for longer, however many examples it has.
    public static let packBudget: Duration = .seconds(1)

    /// A scorer over `workers`; every script call goes through them, never in the server's own process.
    public init(workers: ScoringWorkers) {
        self.workers = workers
    }

    /// The score (one decimal), or why there is none; never throws, so a result's raw values are always kept.
    /// The call waits in `company`'s line of the workers, so one company's slow scripts never hold another's.
    public func score(
        _ entry: ExerciseCatalog.Entry,
        subject: Subject,
        values: [String: Double],
        company: UUID
    ) async -> (score: Double?, error: String?) {
        switch await rawScore(entry.exercise, scriptID: entry.scriptID, subject: subject, values: values, tenant: ExerciseCatalog.owner(of: company))
        {
        case .success(let raw): (Score.rounded(raw), nil)
        case .failure(let error): (nil, error.message)
        }
    }

    func rawScore(
        _ exercise: Exercise,
        scriptID: ScriptID,
        subject: Subject,
        values: [String: Double],
        budget: SharedBudget? = nil,
        tenant: String
    ) async -> Result<Double, ScoringError> {
        await workers.score(
            scriptID,
            source: exercise.conversionAlgorithm,
            subject: ScoringSubject(sex: subject.sex.rawValue, age: subject.age, height: subject.height, mass: subject.mass),
            value: values[exercise.primaryField],
            values: values,
            budget: budget,
            tenant: tenant
        )
    }

    /// Compiled chunks are cached by the script's digest: a corrected script never meets its broken predecessor
    /// in the cache, and identical scripts compile once.
    static func scriptID(_ exercise: Exercise) -> ScriptID {
        let digest = SHA256.digest(Array(exercise.conversionAlgorithm.utf8)).prefix(16).hexString
        return ScriptID(exerciseId: "\(exercise.id)@\(digest)", version: 0)
    }

    /// Every problem with the pack's scripts: compile errors, and examples that do not score as declared. All
    /// of it shares `packBudget`; once a script runs out of time, the checks stop there (the pack is refused).
    func scriptProblems(in pack: ExercisePack, tenant: String) async -> [FieldError] {
        var errors: [FieldError] = []
        let budget = SharedBudget(Self.packBudget)
        for (index, exercise) in pack.exercises.enumerated() {
            let path = "exercises[\(index)]"
            if let error = await workers.check(source: exercise.conversionAlgorithm, budget: budget, tenant: tenant) {
                errors.append(FieldError("\(path).conversionAlgorithm", error.message))
                if error.kind == .timeLimit { return errors }
                continue
            }
            let scriptID = Self.scriptID(exercise)
            for (exampleIndex, example) in exercise.examples.enumerated() {
                let field = "\(path).examples[\(exampleIndex)]"
                switch await rawScore(exercise, scriptID: scriptID, subject: example.client, values: example.values, budget: budget, tenant: tenant) {
                case .success(let raw) where abs(raw - example.score) <= Score.exampleTolerance: break
                case .success(let raw): errors.append(FieldError("\(field).score", "expected \(example.score), the script gave \(raw)"))
                case .failure(let error):
                    errors.append(FieldError("\(field).score", "expected \(example.score), the script failed: \(error.message)"))
                    if error.kind == .timeLimit { return errors }
                }
            }
        }
        return errors
    }
}

extension ExerciseScorer {
    /// Scores `result` with the entry's current script, for the client as the result saw them
    /// (`Subject.rescoring`): what recording, editing, a quick correction and a rescore share. When the client
    /// lacks what a score needs, the result keeps its values with the reason instead of a score.
    func apply(_ entry: ExerciseCatalog.Entry, client: Client, to result: inout AssessmentResult) async {
        result.exerciseOwner = entry.owner
        result.categoryId = entry.pack.id
        result.packVersion = entry.pack.version
        switch Subject.rescoring(result.subject, client: client, on: result.recordedAt) {
        case .success(let subject):
            result.subject = subject
            (result.score, result.scoreError) = await score(entry, subject: subject, values: result.values, company: client.companyId)
        case .failure(let missing):
            result.subject = nil
            result.score = nil
            result.scoreError = "not scored: \(missing.message)"
        }
    }
}
