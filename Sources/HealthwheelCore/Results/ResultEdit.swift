import Foundation

/// What a trainer sends to record a result or change one: values with their units, observations, and when it
/// was measured. Every field is checked before anything is applied, and every problem is reported at once.
public struct ResultEdit: Decodable, Sendable, Equatable {
    /// Values by field key; a field not sent keeps its stored value. `null` is refused.
    public var values: Patch<[String: MeasurementInput]> = .unchanged
    /// The trainer's notes; trimmed, and blank or `null` clears them. At most `maxObservationsLength` characters.
    public var observations: Patch<String> = .unchanged
    /// When it was measured: not in the future (beyond `clockSkew`); not before the client's birth date, which the
    /// caller checks against the stored client (`before(birthDate:)`). `null` is refused.
    public var recordedAt: Patch<Date> = .unchanged

    /// The keys an edit body may hold; the API's strict decoding refuses any other, naming it.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case values, observations, recordedAt
    }

    /// In characters, after trimming: room for notes, not for documents.
    public static let maxObservationsLength = 10_000
    /// How far past the server's clock `recordedAt` may be: a tablet's clock is rarely exact.
    public static let clockSkew: TimeInterval = 5 * 60

    /// Builds an edit in code (the plain-text record request, the demo company, tests); nothing is checked until `apply`.
    public init(
        values: Patch<[String: MeasurementInput]> = .unchanged,
        observations: Patch<String> = .unchanged,
        recordedAt: Patch<Date> = .unchanged
    ) {
        self.values = values
        self.observations = observations
        self.recordedAt = recordedAt
    }

    /// Decodes each key as unchanged (absent), clear (`null`) or set, so a PATCH can tell the three apart.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        values = try container.decodePatch([String: MeasurementInput].self, forKey: .values)
        observations = try container.decodePatch(String.self, forKey: .observations)
        recordedAt = try container.decodePatch(Date.self, forKey: .recordedAt)
    }

    /// Applies every field to `result`, or throws every problem and changes nothing. Values not sent keep their
    /// stored value, so an edit may send only the field it corrects; stored values of fields the exercise no
    /// longer has are not carried over. `now` bounds `recordedAt` from above.
    public func apply(to result: inout AssessmentResult, exercise: Exercise, now: Date) throws(ValidationError) {
        var problems = FieldErrorCollector()
        var edited = result
        switch values {
        case .unchanged: break
        case .clear: problems.add("values", "must not be null")
        case .set(let sent):
            var input = sent
            for field in exercise.fields where input[field.key] == nil {
                if let stored = result.values[field.key] { input[field.key] = MeasurementInput(value: stored) }
            }
            if let parsed = problems.check({ () throws(ValidationError) in try ResultValues.parse(input, for: exercise) }) {
                edited.values = parsed
            }
        }
        switch observations {
        case .unchanged: break
        case .clear: edited.observations = nil
        case .set(let text):
            let trimmed = text.trimmingWhiteSpace()
            if text.schemaLength > Self.maxObservationsLength {
                problems.add("observations", "must be at most \(Self.maxObservationsLength) characters")
            } else {
                edited.observations = trimmed.isEmpty ? nil : trimmed
            }
        }
        switch recordedAt {
        case .unchanged: break
        case .clear: problems.add("recordedAt", "must not be null")
        case .set(let date):
            if date > now.addingTimeInterval(Self.clockSkew) {
                problems.add("recordedAt", "is in the future")
            } else {
                edited.recordedAt = date
            }
        }
        try problems.throwIfAny()
        result = edited
    }

    /// The problem when this edit sets `recordedAt` to a day before `birthDate`, the stored client's: a conflict
    /// with that record rather than a malformed request.
    public func before(birthDate: CalendarDate?, in result: AssessmentResult) -> FieldError? {
        guard case .set = recordedAt, let birthDate, CalendarDate(result.recordedAt) < birthDate else { return nil }
        return FieldError("recordedAt", "is before the client's birth date (\(birthDate))")
    }
}
