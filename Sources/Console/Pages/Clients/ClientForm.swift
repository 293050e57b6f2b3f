import Foundation
import HealthwheelCore
import Services

/// A client's fields as the form shows them, in the company's units (cm and kg, or ft + in and lb), and the
/// form read back into a `ClientEdit` that changes only what the trainer changed: a value shown rounded and sent
/// back untouched leaves the stored value as it was.
struct ClientForm {
    var givenName = ""
    var familyName = ""
    var email = ""
    var phone = ""
    var birthDate = ""
    var sex = ""
    var heightCm = ""
    var heightFt = ""
    var heightIn = ""
    var massKg = ""
    var massLb = ""
    var goal = ""
    var notes = ""
    var assignedTrainerId = ""

    init() {}

    init(_ client: Client) {
        givenName = client.givenName ?? ""
        familyName = client.familyName ?? ""
        email = client.email ?? ""
        phone = client.phone ?? ""
        birthDate = client.birthDate?.description ?? ""
        sex = client.sex?.rawValue ?? ""
        if let height = client.height {
            heightCm = Self.number(height * 100, digits: 1)
            let inches = height / 0.0254
            var feet = (inches / 12).rounded(.down)
            var rest = ((inches - feet * 12) * 10).rounded() / 10
            if rest >= 12 {
                feet += 1
                rest -= 12
            }
            heightFt = Self.number(feet, digits: 0)
            heightIn = Self.number(rest, digits: 1)
        }
        if let mass = client.mass {
            massKg = Self.number(mass, digits: 1)
            massLb = Self.number(mass / 0.453_592_37, digits: 1)
        }
        goal = client.goal ?? ""
        notes = client.notes ?? ""
        assignedTrainerId = client.assignedTrainerId?.uuidString.lowercased() ?? ""
    }

    init(_ fields: FormFields) {
        givenName = fields["givenName"] ?? ""
        familyName = fields["familyName"] ?? ""
        email = fields["email"] ?? ""
        phone = fields["phone"] ?? ""
        birthDate = fields["birthDate"] ?? ""
        sex = fields["sex"] ?? ""
        heightCm = fields["heightCm"] ?? ""
        heightFt = fields["heightFt"] ?? ""
        heightIn = fields["heightIn"] ?? ""
        massKg = fields["massKg"] ?? ""
        massLb = fields["massLb"] ?? ""
        goal = fields["goal"] ?? ""
        notes = fields["notes"] ?? ""
        assignedTrainerId = fields["assignedTrainerId"] ?? ""
    }

    /// `value` with at most `digits` decimals and no trailing zeros: `172.5`, `70`.
    static func number(_ value: Double, digits: Int) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// The edit this form makes to `current` (nil: a new client, every filled field set). Fields equal to what
    /// the form showed are unchanged; a blank field clears; numbers that do not read are refused by their field.
    func edit(from current: ClientForm?, units: Theme.Units) throws(ValidationError) -> ClientEdit {
        var edit = ClientEdit()
        var problems = FieldErrorCollector()
        func text(_ value: String, _ was: String?) -> Patch<String> {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if let was, trimmed == was.trimmingCharacters(in: .whitespacesAndNewlines) { return .unchanged }
            return trimmed.isEmpty ? (current == nil ? .unchanged : .clear) : .set(trimmed)
        }
        edit.givenName = text(givenName, current?.givenName)
        edit.familyName = text(familyName, current?.familyName)
        edit.email = text(email, current?.email)
        edit.phone = text(phone, current?.phone)
        edit.birthDate = text(birthDate, current?.birthDate)
        edit.sex = text(sex, current?.sex)
        edit.goal = text(goal, current?.goal)
        edit.notes = text(notes, current?.notes)
        switch text(assignedTrainerId, current?.assignedTrainerId) {
        case .unchanged: break
        case .clear: edit.assignedTrainerId = .clear
        case .set(let id):
            if let id = UUID(hyphenatedHex: id) { edit.assignedTrainerId = .set(id) } else { problems.add("assignedTrainerId", "is not a trainer of this company") }
        }
        func number(_ field: String, _ text: String) -> Double? {
            let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
            guard !trimmed.isEmpty else { return nil }
            guard let value = Double(trimmed), value.isFinite else {
                problems.add(field, "must be a number")
                return nil
            }
            return value
        }
        switch units {
        case .metric:
            if heightCm.trimmingCharacters(in: .whitespaces) != (current?.heightCm ?? "") {
                edit.height = number("heightCm", heightCm).map { .set(MeasurementInput(value: $0, unit: "cm")) } ?? (current == nil ? .unchanged : .clear)
            }
            if massKg.trimmingCharacters(in: .whitespaces) != (current?.massKg ?? "") {
                edit.mass = number("massKg", massKg).map { .set(MeasurementInput(value: $0, unit: "kg")) } ?? (current == nil ? .unchanged : .clear)
            }
        case .imperial:
            let feet = heightFt.trimmingCharacters(in: .whitespaces)
            let inches = heightIn.trimmingCharacters(in: .whitespaces)
            if feet != (current?.heightFt ?? "") || inches != (current?.heightIn ?? "") {
                let ft = number("heightFt", feet)
                let inch = number("heightIn", inches)
                if ft == nil && inch == nil {
                    if current != nil { edit.height = .clear }
                } else {
                    edit.height = .set(MeasurementInput(value: ft ?? 0, unit: "ft", part: ("inches", inch ?? 0)))
                }
            }
            if massLb.trimmingCharacters(in: .whitespaces) != (current?.massLb ?? "") {
                edit.mass = number("massLb", massLb).map { .set(MeasurementInput(value: $0, unit: "lb")) } ?? (current == nil ? .unchanged : .clear)
            }
        }
        try problems.throwIfAny()
        return edit
    }
}
