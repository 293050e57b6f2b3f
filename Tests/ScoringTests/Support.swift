import Scoring

let woman = ScoringSubject(sex: "female", age: 40, height: 1.70, mass: 65)
let man = ScoringSubject(sex: "male", age: 25, height: 1.82, mass: 80)

/// An engine with the server's limits except a longer wall-clock backstop: tests run in parallel on two cores,
/// and a descheduled thread must not turn a plain script into a time-limit failure.
let patientEngine = ScoreEngine(limits: ScoringLimits(timeLimit: .seconds(5)))

/// Scores `source` once. The source doubles as the script's id, so tests never share a cached chunk by accident.
func score(
    _ source: String,
    in engine: ScoreEngine = patientEngine,
    subject: ScoringSubject = woman,
    value: Double? = 50,
    values: [String: Double] = ["bpm": 50, "reps": 2]
) -> Result<Double, ScoringError> {
    engine.score(ScriptID(exerciseId: source, version: 1), source: source, subject: subject, value: value, values: values)
}

extension Result where Failure == ScoringError {
    /// The failure's message, or nil for a score.
    var message: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }

    var kind: ScoringError.Kind? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }
}
