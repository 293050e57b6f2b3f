/// Checks a questionnaire definition when it is loaded, so a broken file stops start-up with a precise message
/// instead of failing for a client later. Each problem names its path inside the file.
public enum QuestionnaireCheck {
    /// Keys the questionnaire format does not know, anywhere in the file, as `path: message` lines: a typo
    /// (`requried`) must stop start-up, not silently drop what it names.
    public static func unknownKeys(in document: JSONValue) -> [String] {
        shape.unknownKeys(in: document).map { "\($0): is not a field of a questionnaire" }
    }

    /// The format's keys, level by level (its `Codable` properties; a test keeps them in step).
    static let shape: JSONShape = {
        let condition = JSONShape(keys: ["key", "equals", "anyOf", "contains"])
        let field = JSONShape(
            keys: [
                "key", "title", "type", "required", "help", "enableWhen", "editableAfterCompletion", "unit", "quantity",
                "minimum", "maximum", "options", "maxLength", "mirrors",
            ],
            objects: ["enableWhen": condition],
            arrays: ["options": JSONShape(keys: ["value", "title"])]
        )
        return JSONShape(
            keys: ["id", "version", "title", "description", "sections", "flags"],
            arrays: [
                "sections": JSONShape(keys: ["key", "title", "help", "editableAfterCompletion", "fields"], arrays: ["fields": field]),
                "flags": JSONShape(keys: ["flag", "title", "when"], arrays: ["when": condition]),
            ]
        )
    }()

    /// Every problem with the definition as `path: message` lines (`sections[1].fields[0].key: 'sex' is used twice`);
    /// empty when it is sound. Keys, options, mirrored fields and every condition's target are checked.
    public static func problems(in questionnaire: Questionnaire) -> [String] {
        var problems: [String] = []
        if !isIdentifier(questionnaire.id) { problems.append("id: must be letters, digits, - or _") }
        if questionnaire.version < 1 { problems.append("version: must be 1 or more") }
        if questionnaire.sections.isEmpty { problems.append("sections: must not be empty") }

        var seen: [String: String] = [:]
        var sectionKeys: Set<String> = []
        var mirrored: Set<Questionnaire.MirroredField> = []
        for (sectionIndex, section) in questionnaire.sections.enumerated() {
            let sectionPath = "sections[\(sectionIndex)]"
            if !sectionKeys.insert(section.key).inserted { problems.append("\(sectionPath).key: '\(section.key)' is used twice") }
            for (fieldIndex, field) in section.fields.enumerated() {
                let path = "\(sectionPath).fields[\(fieldIndex)]"
                if !isIdentifier(field.key) { problems.append("\(path).key: must be letters, digits, - or _") }
                if let earlier = seen[field.key] { problems.append("\(path).key: '\(field.key)' is already used at \(earlier)") }
                seen[field.key] = path
                problems += fieldProblems(field, path: path)
                if let mirror = field.mirrors, !mirrored.insert(mirror).inserted {
                    problems.append("\(path).mirrors: another field already mirrors \(mirror.rawValue)")
                }
            }
        }
        for (sectionIndex, section) in questionnaire.sections.enumerated() {
            for (fieldIndex, field) in section.fields.enumerated() {
                guard let condition = field.enableWhen else { continue }
                let path = "sections[\(sectionIndex)].fields[\(fieldIndex)].enableWhen"
                problems += conditionProblems(condition, in: questionnaire, path: path)
                if condition.key == field.key { problems.append("\(path).key: a field cannot depend on itself") }
            }
        }
        for (index, rule) in questionnaire.flags.enumerated() {
            if !isIdentifier(rule.flag) { problems.append("flags[\(index)].flag: must be letters, digits, - or _") }
            if rule.when.isEmpty { problems.append("flags[\(index)].when: must not be empty") }
            for (conditionIndex, condition) in rule.when.enumerated() {
                problems += conditionProblems(condition, in: questionnaire, path: "flags[\(index)].when[\(conditionIndex)]")
            }
        }
        return problems
    }

    private static func fieldProblems(_ field: Questionnaire.Field, path: String) -> [String] {
        var problems: [String] = []
        if field.title.isEmpty { problems.append("\(path).title: must not be empty") }
        switch field.type {
        case .choice, .multiChoice:
            let values = field.options?.map(\.value) ?? []
            if values.isEmpty { problems.append("\(path).options: a \(field.type.rawValue) field needs options") }
            if Set(values).count != values.count { problems.append("\(path).options: values must be unique") }
        case .measurement:
            if field.quantity == nil { problems.append("\(path).quantity: a measurement needs length or mass") }
        default:
            if field.options != nil { problems.append("\(path).options: only choice fields have options") }
        }
        if let minimum = field.minimum, let maximum = field.maximum, minimum > maximum {
            problems.append("\(path).minimum: is greater than maximum")
        }
        if let mirror = field.mirrors {
            let expected: [Questionnaire.FieldType] =
                switch mirror {
                case .height, .mass: [.measurement]
                case .birthDate: [.date]
                case .sex: [.choice]
                default: [.text]
                }
            if !expected.contains(field.type) {
                problems.append("\(path).mirrors: \(mirror.rawValue) needs a \(expected[0].rawValue) field")
            }
            if mirror == .sex, Set(field.options?.map(\.value) ?? []) != Set(Sex.allCases.map(\.rawValue)) {
                problems.append("\(path).options: a field mirroring sex must offer exactly male and female")
            }
            if mirror == .height && field.quantity != .length || mirror == .mass && field.quantity != .mass {
                problems.append("\(path).quantity: does not match \(mirror.rawValue)")
            }
        }
        return problems
    }

    private static func conditionProblems(_ condition: Questionnaire.Condition, in questionnaire: Questionnaire, path: String) -> [String] {
        var problems: [String] = []
        if questionnaire.field(condition.key) == nil { problems.append("\(path).key: no field named '\(condition.key)'") }
        let tests = [condition.equals != nil, condition.anyOf != nil, condition.contains != nil].filter { $0 }.count
        if tests != 1 { problems.append("\(path): needs exactly one of equals, anyOf, contains") }
        return problems
    }

    private static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }
}
