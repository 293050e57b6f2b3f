import Foundation

extension FHIR {
    /// A shipped questionnaire as a FHIR Questionnaire: one `group` item per section, one item per field, typed
    /// (`choice` options coded in a system of the questionnaire's own), with its `enableWhen` conditions.
    public static func questionnaire(_ questionnaire: Questionnaire) -> JSONValue {
        let fields = Dictionary(questionnaire.allFields.map { ($0.field.key, $0.field) }, uniquingKeysWith: { first, _ in first })
        let sections: [JSONValue] = questionnaire.sections.map { section in
            object([
                ("linkId", .string(section.key)),
                ("text", .string(section.title)),
                ("type", "group"),
                ("item", .array(section.fields.map { item($0, of: questionnaire, fields: fields) })),
            ])
        }
        return object([
            ("resourceType", "Questionnaire"),
            ("id", .string("\(questionnaire.id)-\(questionnaire.version)")),
            ("url", .string(questionnaireURL(questionnaire.id))),
            ("version", .string(String(questionnaire.version))),
            ("name", .string(questionnaire.id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())),
            ("title", .string(questionnaire.title)),
            ("status", "active"),
            ("description", text(questionnaire.description)),
            ("item", .array(sections)),
        ])
    }

    static func item(_ field: Questionnaire.Field, of questionnaire: Questionnaire, fields: [String: Questionnaire.Field]) -> JSONValue {
        let type: String =
            switch field.type {
            case .text: (field.maxLength ?? .max) <= 255 ? "string" : "text"
            case .number: "decimal"
            case .boolean: "boolean"
            case .choice, .multiChoice: "choice"
            case .date: "date"
            case .measurement: "quantity"
            }
        var conditions: [JSONValue] = []
        var behaviour: JSONValue?
        if let condition = field.enableWhen, let asked = fields[condition.key] {
            let expected = condition.equals.map { [$0] } ?? condition.contains.map { [$0] } ?? condition.anyOf ?? []
            conditions = expected.compactMap { value in
                answer(value, to: asked, of: questionnaire, prefix: "answer").map { answer in
                    var members = answer.object ?? [:]
                    members["question"] = .string(condition.key)
                    members["operator"] = "="
                    return .object(members)
                }
            }
            if conditions.count > 1 { behaviour = "any" }
        }
        return object([
            ("linkId", .string(field.key)),
            ("text", .string(field.title)),
            ("type", .string(type)),
            ("required", field.required == true ? .bool(true) : nil),
            ("repeats", field.type == .multiChoice ? .bool(true) : nil),
            ("maxLength", field.type == .text ? field.maxLength.map { .number(Double($0)) } : nil),
            ("enableWhen", conditions.isEmpty ? nil : .array(conditions)),
            ("enableBehavior", behaviour),
            (
                "answerOption",
                field.options.map { options in .array(options.map { ["valueCoding": coding($0.value, of: field, in: questionnaire)] }) }
            ),
        ])
    }

    /// A screening as a QuestionnaireResponse: answers by `linkId` within their section, typed as the
    /// questionnaire asks them. `draft` is `in-progress`; an answer the questionnaire no longer describes is kept
    /// as text rather than dropped.
    static func response(_ screening: Screening, questionnaire: Questionnaire?, patient: JSONValue, author: JSONValue?) -> JSONValue {
        var answered = screening.answers
        var groups: [JSONValue] = []
        if let questionnaire {
            for section in questionnaire.sections {
                let items: [JSONValue] = section.fields.compactMap { field in
                    guard let value = answered.removeValue(forKey: field.key), value != .null else { return nil }
                    let values = field.type == .multiChoice ? (value.array ?? [value]) : [value]
                    let answers = values.map {
                        answer($0, to: field, of: questionnaire, prefix: "value") ?? ["valueString": .string(plainText(of: $0))]
                    }
                    return ["linkId": .string(field.key), "text": .string(field.title), "answer": .array(answers)]
                }
                if !items.isEmpty { groups.append(["linkId": .string(section.key), "text": .string(section.title), "item": .array(items)]) }
            }
        }
        for (key, value) in answered.sorted(by: { $0.key < $1.key }) where value != .null {
            groups.append(["linkId": .string(key), "answer": [["valueString": .string(plainText(of: value))]]])
        }
        let status =
            switch screening.status {
            case .draft: "in-progress"
            case .completed: "completed"
            case .amended: "amended"
            }
        return object([
            ("resourceType", "QuestionnaireResponse"),
            ("id", .string(screening.id.lowercaseHyphenated)),
            ("questionnaire", .string("\(questionnaireURL(screening.questionnaireId))|\(screening.questionnaireVersion)")),
            ("status", .string(status)),
            ("subject", patient),
            ("authored", .string(instant(screening.completedAt ?? screening.updatedAt))),
            ("author", author),
            ("item", groups.isEmpty ? nil : .array(groups)),
        ])
    }

    /// `value` as an answer to `field` (`valueBoolean`, `valueCoding`…; with `prefix` "answer" for `enableWhen`),
    /// or nil when its JSON type is not the one the field asks for.
    static func answer(_ value: JSONValue, to field: Questionnaire.Field, of questionnaire: Questionnaire, prefix: String) -> JSONValue? {
        switch (field.type, value) {
        case (.boolean, .bool(let flag)): [prefix + "Boolean": .bool(flag)]
        case (.number, .number(let number)): [prefix + "Decimal": .number(number)]
        case (.text, .string(let text)): [prefix + "String": .string(text)]
        case (.date, .string(let date)) where CalendarDate(date) != nil: [prefix + "Date": .string(date)]
        case (.choice, .string(let code)), (.multiChoice, .string(let code)): [prefix + "Coding": coding(code, of: field, in: questionnaire)]
        case (.measurement, .number(let stored)):
            [prefix + "Quantity": quantity(stored, unit: field.quantity?.siUnit ?? "1")]
        default: nil
        }
    }

    static func coding(_ code: String, of field: Questionnaire.Field, in questionnaire: Questionnaire) -> JSONValue {
        object([
            ("system", .string("\(questionnaireURL(questionnaire.id)):\(field.key)")),
            ("code", .string(code)),
            ("display", (field.options?.first { $0.value == code }?.title).map(JSONValue.string)),
        ])
    }

    static func plainText(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .bool(let flag): flag ? "yes" : "no"
        case .null: ""
        case .array(let items): items.map(plainText(of:)).joined(separator: ", ")
        case .object(let members): members.sorted { $0.key < $1.key }.map { "\($0.key): \(plainText(of: $0.value))" }.joined(separator: ", ")
        }
    }
}
