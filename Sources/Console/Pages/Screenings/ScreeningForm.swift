import Foundation
import HealthwheelCore

/// A questionnaire's fields as form inputs, and a posted form read back into the answers it changes: only the
/// fields whose inputs differ from what the form showed are sent, so an answer shown rounded (a measurement in
/// the company's units) and sent back untouched stays exactly as stored, and fields shown read-only (locked
/// after completion) are never sent.
struct ScreeningForm {
    let questionnaire: Questionnaire
    let units: Theme.Units

    /// The input names of a field: the key, or the key and a suffix per measurement input (`heightFt`, `heightIn`).
    func inputNames(_ field: Questionnaire.Field) -> [String] {
        guard field.type == .measurement else { return [field.key] }
        return measurement(field).inputs.map { field.key + $0.suffix }
    }

    func measurement(_ field: Questionnaire.Field) -> MeasurementFields {
        MeasurementFields(quantity: field.quantity ?? .length, units: units)
    }

    /// What the form's inputs show for an answer: one text per input (a multi-choice: each chosen value).
    func texts(_ answer: JSONValue?, _ field: Questionnaire.Field) -> [String] {
        let answer = answer ?? .null
        switch field.type {
        case .text, .choice, .date: return [answer.string ?? ""]
        case .number: return [answer.number.map { MeasurementFields.number($0, digits: 6) } ?? ""]
        case .boolean: return [answer.bool.map { $0 ? "yes" : "no" } ?? ""]
        case .multiChoice: return (answer.array ?? []).compactMap(\.string)
        case .measurement: return answer.number.map { measurement(field).texts($0) } ?? inputNames(field).map { _ in "" }
        }
    }

    /// What the form sent for a field, in the shape of `texts`.
    func submitted(_ field: Questionnaire.Field, _ form: FormFields) -> [String] {
        switch field.type {
        case .multiChoice: return form.all(field.key)
        default: return inputNames(field).map { (form[$0] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        }
    }

    /// The answers the form changes among `editable` fields, compared with `answers` as stored. A number that
    /// does not read is refused by its field; everything else is checked by the screening rules.
    func changes(
        _ form: FormFields,
        answers: [String: JSONValue],
        editable: (Questionnaire.Field) -> Bool
    ) throws(ValidationError) -> [String: JSONValue] {
        var changes: [String: JSONValue] = [:]
        var problems = FieldErrorCollector()
        for (field, _) in questionnaire.allFields where editable(field) {
            let sent = submitted(field, form)
            let shown = texts(answers[field.key], field).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard sent != shown else { continue }
            let value = problems.check { () throws(ValidationError) in try Self.value(sent, field, measurement(field)) }
            if let value { changes[field.key] = value }
        }
        try problems.throwIfAny()
        return changes
    }

    /// The answer an input's texts make: blank clears it.
    static func value(_ texts: [String], _ field: Questionnaire.Field, _ measurement: MeasurementFields) throws(ValidationError) -> JSONValue {
        let text = texts.first ?? ""
        switch field.type {
        case .text, .choice, .date: return text.isEmpty ? .null : .string(text)
        case .number:
            guard !text.isEmpty else { return .null }
            guard let number = Double(text.replacingOccurrences(of: ",", with: ".")), number.isFinite else {
                throw ValidationError(field.key, "must be a number")
            }
            return .number(number)
        case .boolean: return text == "yes" ? .bool(true) : text == "no" ? .bool(false) : .null
        case .multiChoice: return texts.isEmpty ? .null : .array(texts.map(JSONValue.string))
        case .measurement:
            guard let input = try measurement.input(texts, field: field.key) else { return .null }
            var object: [String: JSONValue] = ["value": .number(input.value), "unit": .string(input.unit ?? measurement.inputs[0].unit)]
            if let part = input.part { object[part.field] = .number(part.value) }
            return .object(object)
        }
    }
}
