import Foundation

/// The values of one result, as a client sends them (`{"load": {"value": 135, "unit": "lb"}, "reps": 8}`), in
/// the stored units of each field's quantity. Bare numbers are already in stored units.
public enum ResultValues {
    /// Every field of `exercise` converted, or every problem at once (missing, unknown, bad unit, implausible).
    public static func parse(
        _ input: [String: MeasurementInput],
        for exercise: Exercise,
        path: String = "values"
    ) throws(ValidationError)
        -> [String: Double]
    {
        var errors = FieldErrorCollector()
        var values: [String: Double] = [:]
        for key in Set(input.keys).subtracting(exercise.fields.map(\.key)).sorted() {
            errors.add("\(path).\(key)", "is not a field of \(exercise.id); its fields are \(exercise.fields.map(\.key).joined(separator: ", "))")
        }
        for field in exercise.fields {
            guard let measurement = input[field.key] else {
                errors.add("\(path).\(field.key)", "is required")
                continue
            }
            if let value = errors.check({ () throws(ValidationError) in
                try measurement.siValue(of: field.quantity, field: "\(path).\(field.key)", range: field.range)
            }) {
                values[field.key] = value
            }
        }
        try errors.throwIfAny()
        return values
    }

    /// Keys sent that the exercise has no field for and, unless `partial` (an edit keeps values not sent), fields
    /// not sent: values that do not fit the exercise as the server holds it. Callers answer these as a conflict
    /// with that stored definition (409) before `parse` judges each value.
    public static func mismatch(_ keys: some Collection<String>, for exercise: Exercise, partial: Bool, path: String = "values") -> [FieldError] {
        // The usual case, every field given once and nothing else, answers before any message is composed.
        if keys.count == exercise.fields.count, keys.allSatisfy({ key in exercise.fields.contains { $0.key == key } }) { return [] }
        let fields = exercise.fields.map(\.key)
        let list = fields.joined(separator: ", ")
        let unknown = Set(keys).subtracting(fields).sorted().map {
            FieldError("\(path).\($0)", "is not a field of \(exercise.id); its fields are \(list)")
        }
        let missing = partial ? [] : fields.filter { !keys.contains($0) }.map { FieldError("\(path).\($0)", "is required") }
        return unknown + missing
    }
}

/// Scores as stored: one decimal, from 0 to 10.
public enum Score {
    /// The scores a script may give; the scoring engine refuses anything outside as a `scoreError`.
    public static let range: ClosedRange<Double> = 0...10

    /// A raw script result as stored: to one decimal, halves away from zero (7.25 → 7.3).
    public static func rounded(_ raw: Double) -> Double {
        (raw * 10).rounded() / 10
    }

    /// An example's expected score matches when within this of the script's raw result.
    public static let exampleTolerance = 0.05
}
