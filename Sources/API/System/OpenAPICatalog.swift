import Foundation
import HealthwheelCore

/// The schemas of the OpenAPI document that the loaded questionnaires and shipped exercises decide, generated from
/// them so that the document states the very rules the server applies: each screening answer's type, each shipped
/// exercise's fields with the units and ranges they take, and the client fields that answers mirror. Text limits
/// count code points and ranges are stated per unit, as the server checks them (`String.schemaLength`,
/// `MeasurementInput.siValue`). Rules no schema can state (the clock, one field against another) are named in the
/// operations' descriptions instead.
enum OpenAPICatalog {
    /// Every generated schema by its name under `components.schemas`, in a stable order.
    static func schemas(exercises: [Exercise], questionnaires: [Questionnaire]) -> [(name: String, schema: JSONValue)] {
        var schemas: [(String, JSONValue)] = clientFields.map { ($0.name, $0.schema) }
        schemas.append(("Measurement", anyMeasurement))
        schemas.append(("Email", email))
        schemas.append(("MailAddress", mailAddress))
        schemas.append(("Name", name))
        schemas.append(("Note", note))
        schemas.append(("Caption", caption))
        schemas.append(("BlankText", blank))
        schemas.append(("NonBlankText", ["type": "string", "pattern": .string("[^\(space)]")]))
        for exercise in exercises { schemas.append(("ExerciseValues.\(exercise.id)", values(of: exercise))) }
        schemas.append(("ResultExercise", resultExercise(exercises)))
        schemas.append(("ExerciseFieldValues", fieldValues(exercises)))
        for questionnaire in questionnaires.sorted(by: { $0.id < $1.id }) {
            schemas.append(("ScreeningAnswers.\(questionnaire.id)", answers(of: questionnaire)))
        }
        return schemas
    }

    /// The schemas as lines to append to the document, whose last section is `components.schemas`: one entry per
    /// line in JSON, which YAML reads as flow style.
    static func yamlLines(exercises: [Exercise], questionnaires: [Questionnaire]) -> String {
        schemas(exercises: exercises, questionnaires: questionnaires).map { "    \($0.name): \(text(of: $0.schema))\n" }.joined()
    }

    /// Compact JSON with sorted keys. Numbers are written as Swift's shortest text that reads back as the same
    /// double (`JSONEncoder` rounds to fewer digits), so a stated bound is the very number the server compares
    /// with; white space and line breaks inside strings are escaped, as YAML would read some as line ends.
    static func text(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .string(let string):
            var escaped = "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                    escaped += String(format: "\\u%04X", scalar.value)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        case .array(let items): return "[" + items.map(text(of:)).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { text(of: .string($0)) + ":" + text(of: members[$0]!) }.joined(separator: ",") + "}"
        }
    }

    // MARK: - Text

    /// Unicode White_Space, which the server trims (`trimmingWhiteSpace`); JSON Schema's `\s` differs (U+FEFF).
    private static let space = #"\t\n\u000B\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000"#
    /// Control characters (general category Cc), which names and emails refuse.
    private static let control = #"\u0000-\u001F\u007F-\u009F"#

    private static func object(_ members: [String: JSONValue]) -> JSONValue { .object(members) }
    private static func string(maxLength: Int, pattern: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "string", "maxLength": .number(Double(maxLength))]
        if let pattern { schema["pattern"] = .string(pattern) }
        return .object(schema)
    }
    private static func anyOf(_ schemas: [JSONValue]) -> JSONValue { .object(["anyOf": .array(schemas)]) }
    private static let null: JSONValue = ["type": "null"]
    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    /// Text of white space only, which clears a field.
    private static let blank: JSONValue = ["type": "string", "pattern": .string("^[\(space)]*$")]
    /// Text that is blank (clearing), or trimmed holds no control character.
    private static func plainText(maxLength: Int) -> JSONValue {
        string(maxLength: maxLength, pattern: "^[\(space)]*(?:[^\(control)]*[^\(control)\(space)])?[\(space)]*$")
    }

    /// An address as `InputRules.email` takes it: one `@`, a dotted domain that neither starts nor ends with a dot,
    /// no white space or control character inside; white space around is trimmed.
    static let email: JSONValue = {
        let part = "[^@\(space)\(control)]"
        let edge = "[^@.\(space)\(control)]"
        return string(maxLength: InputRules.maxEmailLength, pattern: "^[\(space)]*\(part)+@\(edge)\(part)*\\.\(part)*\(edge)[\(space)]*$")
    }()

    /// An address a report is mailed to: an `email` in plain ASCII without the characters mail headers treat
    /// specially (`<>()[],;:\"`), as `ReportEmails` takes it.
    static let mailAddress: JSONValue = {
        let part = #"[!#$%&'*+\-./0-9=?A-Z^_`a-z{|}~]"#
        let edge = #"[!#$%&'*+\-/0-9=?A-Z^_`a-z{|}~]"#
        return string(maxLength: InputRules.maxEmailLength, pattern: "^[\(space)]*\(part)+@\(edge)\(part)*\\.\(part)*\(edge)[\(space)]*$")
    }()

    /// A trainer's note in a report email: no control characters but tabs and line breaks once trimmed.
    static let note = string(maxLength: 5_000, pattern: "^[\(space)]*[^" + #"\u0000-\u0008\u000B-\u001F\u007F-\u009F"# + "]*[\(space)]*$")

    /// A photo's or video's caption, as `MediaFile.caption` takes it: no control characters but line breaks once trimmed.
    static let caption = string(
        maxLength: MediaFile.maximumCaptionLength,
        pattern: "^[\(space)]*[^" + #"\u0000-\u0009\u000B-\u001F\u007F-\u009F"# + "]*[\(space)]*$"
    )

    /// A name that must be there (a trainer's, a company's), as `InputRules.name` takes it: not blank, no
    /// control character once trimmed.
    static let name = string(
        maxLength: InputRules.maxNameLength,
        pattern: "^[\(space)]*[^\(control)]*[^\(control)\(space)][\(space)]*$"
    )

    /// A phone number as `InputRules.phone` takes it: digits with spaces, dashes, dots, parentheses and `+`, 3 to 20 digits.
    private static let phone = string(maxLength: 40, pattern: "^[\(space)]*[ \\-.()+]*(?:[0-9][ \\-.()+]*){3,20}[\(space)]*$")

    /// The client fields a body may set (and screening answers mirror), each nullable: `null` or blank text clears.
    static let clientFields: [(name: String, schema: JSONValue)] = [
        ("ClientName", anyOf([null, plainText(maxLength: InputRules.maxNameLength)])),
        ("ClientEmail", anyOf([null, blank, email])),
        ("ClientPhone", anyOf([null, blank, phone])),
        ("ClientBirthDate", anyOf([null, ["type": "string", "format": "date"]])),
        ("ClientHeight", anyOf([null, measurement(.length, range: ClientEdit.heightRange)])),
        ("ClientMass", anyOf([null, measurement(.mass, range: ClientEdit.massRange)])),
    ]

    // MARK: - Measurements

    /// A value of `quantity` within `range` (stored units): a bare number in the stored unit, `{value, unit}` in
    /// any of its units with the range divided by the unit's factor, a stopwatch text for durations, or whole
    /// feet (stones) with inches (pounds).
    static func measurement(_ quantity: Quantity, range: ClosedRange<Double>) -> JSONValue {
        let lowest = range.lowerBound
        var forms: [JSONValue] = [["type": "number", "minimum": .number(lowest), "maximum": .number(range.upperBound)]]
        for unit in quantity.units {
            forms.append(
                valueWithUnit(
                    unit.name,
                    value: ["type": "number", "minimum": .number(lowest / unit.toSI), "maximum": .number(range.upperBound / unit.toSI)]
                )
            )
        }
        if quantity == .duration && range == quantity.plausibleRange {
            // 2879:59.9 and 47:59:59.9 stay below the 48 hours a duration may last.
            let seconds = #"[0-5]?[0-9](?:\.[0-9]+)?"#
            let minutes = #"0*(?:[0-9]{1,3}|1[0-9]{3}|2[0-7][0-9]{2}|28[0-7][0-9])"#
            let hours = #"0*(?:[0-9]|[0-3][0-9]|4[0-7])"#
            forms.append(valueWithUnit("mm:ss", value: ["type": "string", "pattern": .string("^\(minutes):\(seconds)$")]))
            forms.append(valueWithUnit("h:mm:ss", value: ["type": "string", "pattern": .string("^\(hours):0*[0-5]?[0-9]:\(seconds)$")]))
        }
        if let compound = quantity.compound, let wholes = quantity.compoundWholes(within: range) {
            forms.append(
                object([
                    "type": "object", "additionalProperties": false, "required": ["value", "unit", .string(compound.field)],
                    "properties": object([
                        "value": ["type": "integer", "minimum": .number(Double(wholes.lowerBound)), "maximum": .number(Double(wholes.upperBound))],
                        "unit": ["const": .string(compound.unit)],
                        compound.field: ["type": "number", "minimum": 0, "exclusiveMaximum": .number(compound.perUnit)],
                    ]),
                ])
            )
        }
        return anyOf(forms)
    }

    /// A value of a field the document does not know (a company's own exercise): any form `MeasurementInput`
    /// reads, a bare number in the stored unit or `{value, unit}` with at most one compound part. Its unit and
    /// range are the field's, checked once the exercise is known.
    static let anyMeasurement: JSONValue = {
        let stopwatch = #"^0*[0-9]{1,9}:[0-5]?[0-9](?:\.[0-9]+)?$"#
        let clock = #"^0*[0-9]{1,9}:0*[0-5]?[0-9]:[0-5]?[0-9](?:\.[0-9]+)?$"#
        var forms: [JSONValue] = [
            ["type": "number", "description": "In the field's stored unit (m, kg, s, bpm, count, mmHg, %)."],
            valueWithUnit("mm:ss", value: ["type": "string", "pattern": .string(stopwatch)]),
            valueWithUnit("h:mm:ss", value: ["type": "string", "pattern": .string(clock)]),
        ]
        for part in ["inches", "pounds"] {
            forms.append([
                "type": "object", "additionalProperties": false, "required": ["value", "unit"],
                "properties": .object(["value": ["type": "number"], "unit": ["type": "string"], part: ["type": "number"]]),
            ])
        }
        return anyOf(forms)
    }()

    private static func valueWithUnit(_ unit: String, value: JSONValue) -> JSONValue {
        object([
            "type": "object", "additionalProperties": false, "required": ["value", "unit"],
            "properties": object(["value": value, "unit": ["const": .string(unit)]]),
        ])
    }

    // MARK: - Exercises

    /// One shipped exercise's `values`: each of its fields' measurement, all of them.
    private static func values(of exercise: Exercise) -> JSONValue {
        [
            "type": "object", "additionalProperties": false, "required": .array(exercise.fields.map { .string($0.key) }),
            "properties": .object(Dictionary(uniqueKeysWithValues: exercise.fields.map { ($0.key, measurement($0.quantity, range: $0.range)) })),
        ]
    }

    /// The `exerciseId` and `values` of a new result: a shipped exercise with its own fields, or another id
    /// (a company's own exercise, whose fields its pack defines; an unknown id is a 404).
    private static func resultExercise(_ exercises: [Exercise]) -> JSONValue {
        var branches: [JSONValue] = exercises.map { exercise in
            ["properties": object(["exerciseId": ["const": .string(exercise.id)], "values": ref("ExerciseValues.\(exercise.id)")])]
        }
        branches.append([
            "properties": object([
                "exerciseId": ["not": ["enum": .array(exercises.map { .string($0.id) })]],
                "values": ["type": "object", "additionalProperties": ref("Measurement")],
            ])
        ])
        return anyOf(branches)
    }

    /// `values` where the exercise is named elsewhere (the path, the stored result): each field key of the shipped
    /// exercises with its measurement (either one where two exercises share a key), any other key as a company's
    /// own exercise may have it. Whether the keys are that exercise's fields is checked against it (409). One
    /// object, not a choice between exercises: generators draw from it without end.
    private static func fieldValues(_ exercises: [Exercise]) -> JSONValue {
        var byKey: [String: [JSONValue]] = [:]
        for field in exercises.flatMap(\.fields) {
            let schema = measurement(field.quantity, range: field.range)
            if !(byKey[field.key]?.contains(schema) ?? false) { byKey[field.key, default: []].append(schema) }
        }
        return [
            "type": "object", "additionalProperties": ref("Measurement"),
            "properties": .object(byKey.mapValues { $0.count == 1 ? $0[0] : anyOf($0) }),
        ]
    }

    // MARK: - Screening answers

    /// Every question of `questionnaire` by key, each nullable (`null` clears an answer); answers that mirror a
    /// client field take that field's rules too.
    private static func answers(of questionnaire: Questionnaire) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for (field, _) in questionnaire.allFields {
            let answer = answerSchema(field)
            properties[field.key] = field.mirrors.flatMap(mirroredSchema).map { .object(["allOf": [answer, $0]]) } ?? answer
        }
        return ["type": "object", "additionalProperties": false, "properties": .object(properties)]
    }

    private static func answerSchema(_ field: Questionnaire.Field) -> JSONValue {
        let options = JSONValue.array((field.options ?? []).map { .string($0.value) })
        switch field.type {
        case .text:
            return anyOf([null, string(maxLength: field.maxLength ?? 2_000)])
        case .number:
            var number: [String: JSONValue] = ["type": "number"]
            if let minimum = field.minimum { number["minimum"] = .number(minimum) }
            if let maximum = field.maximum { number["maximum"] = .number(maximum) }
            return anyOf([null, .object(number)])
        case .boolean:
            return ["type": ["boolean", "null"]]
        case .choice:
            return anyOf([null, ["type": "string", "enum": options]])
        case .multiChoice:
            return anyOf([null, ["type": "array", "uniqueItems": true, "items": ["type": "string", "enum": options]]])
        case .date:
            return anyOf([null, ["type": "string", "format": "date"]])
        case .measurement:
            return anyOf([null, measurement(field.quantity ?? .length, range: 0...(field.maximum ?? 1_000_000))])
        }
    }

    private static func mirroredSchema(_ mirror: Questionnaire.MirroredField) -> JSONValue? {
        switch mirror {
        case .givenName, .familyName: ref("ClientName")
        case .email: ref("ClientEmail")
        case .phone: ref("ClientPhone")
        case .birthDate: ref("ClientBirthDate")
        case .height: ref("ClientHeight")
        case .mass: ref("ClientMass")
        case .sex, .goal: nil
        }
    }
}
