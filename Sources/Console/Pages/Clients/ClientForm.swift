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
            heightCm = MeasurementFields(quantity: .length, units: .metric).texts(height)[0]
            let imperial = MeasurementFields(quantity: .length, units: .imperial).texts(height)
            (heightFt, heightIn) = (imperial[0], imperial[1])
        }
        if let mass = client.mass {
            massKg = MeasurementFields(quantity: .mass, units: .metric).texts(mass)[0]
            massLb = MeasurementFields(quantity: .mass, units: .imperial).texts(mass)[0]
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

    /// The edit this form makes to `current` (nil: a new client, every filled field set). Fields equal to what
    /// the form showed are unchanged; a blank field clears; numbers that do not read are refused by their field,
    /// together with whatever else the client rules refuse, so the form names every problem at once.
    func edit(from current: ClientForm?, units: Theme.Units, today: CalendarDate) throws(ValidationError) -> ClientEdit {
        let (edit, unread) = readEdit(from: current, units: units)
        guard !unread.isEmpty else { return edit }
        var scratch = Client(companyId: UUID(), createdAt: Date())
        var problems = unread
        do { try edit.apply(to: &scratch, today: today) } catch { problems += error.errors }
        throw ValidationError(problems)
    }

    private func readEdit(from current: ClientForm?, units: Theme.Units) -> (ClientEdit, [FieldError]) {
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
            if let id = UUID(hyphenatedHex: id) {
                edit.assignedTrainerId = .set(id)
            } else {
                problems.add("assignedTrainerId", "is not a trainer of this company")
            }
        }
        // A measurement shown and sent back unchanged stays as stored; a changed one is read in the company's units.
        func measurement(_ quantity: Quantity, _ field: String, _ texts: [String], _ was: [String]?) -> Patch<MeasurementInput> {
            let trimmed = texts.map { $0.trimmingCharacters(in: .whitespaces) }
            if let was, trimmed == was { return .unchanged }
            do {
                guard let input = try MeasurementFields(quantity: quantity, units: units).input(trimmed, field: field) else {
                    return current == nil ? .unchanged : .clear
                }
                return .set(input)
            } catch {
                problems.add(field, "must be a number")
                return .unchanged
            }
        }
        switch units {
        case .metric:
            edit.height = measurement(.length, "height", [heightCm], current.map { [$0.heightCm] })
            edit.mass = measurement(.mass, "mass", [massKg], current.map { [$0.massKg] })
        case .imperial:
            edit.height = measurement(.length, "height", [heightFt, heightIn], current.map { [$0.heightFt, $0.heightIn] })
            edit.mass = measurement(.mass, "mass", [massLb], current.map { [$0.massLb] })
        }
        return (edit, problems.errors)
    }
}
