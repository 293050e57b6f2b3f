import Foundation

/// Checks a pack's shape before any script runs: ids, colours, fields, examples and image paths. Each problem
/// names its path inside the pack (`exercises[2].fields[0].unit`), so an author can fix all of them at once.
/// Whether scripts compile and score their examples is checked by the scoring engine after this.
public enum ExercisePackCheck {
    /// The highest version a pack may have: any 32-bit client reads it, and no pack reaches it by counting.
    public static let maximumVersion = 2_147_483_647

    /// Keys no pack format knows, anywhere in the document: a typo must not silently drop what it names.
    public static func unknownKeys(in document: JSONValue) -> [FieldError] {
        shape.unknownKeys(in: document).map { FieldError($0, "is not a field of an exercise pack") }
    }

    /// The pack format's keys, level by level.
    static let shape = JSONShape(
        keys: ExercisePack.keys,
        arrays: [
            "exercises": JSONShape(
                keys: Exercise.keys,
                arrays: [
                    "fields": JSONShape(keys: Exercise.Field.keys),
                    "steps": JSONShape(keys: Exercise.Step.keys),
                    "examples": JSONShape(keys: Exercise.Example.keys, objects: ["client": JSONShape(keys: Subject.keys)]),
                ]
            )
        ],
        maps: [
            "translations": JSONShape(
                keys: PackTranslation.keys,
                maps: [
                    "exercises": JSONShape(keys: ExerciseTranslation.keys, maps: ["fields": JSONShape(keys: FieldTranslation.keys)])
                ]
            )
        ]
    )

    /// Everything wrong with the pack's shape. `imageExists` answers whether a step's image is in the pack folder
    /// (nil when the pack came without a folder, as an upload does).
    public static func problems(in pack: ExercisePack, imageExists: ((String) -> Bool)? = nil) -> [FieldError] {
        var errors: [FieldError] = []
        if !isIdentifier(pack.id) { errors.append(FieldError("id", "must be lower-case letters, digits and single hyphens")) }
        if pack.name.trimmingWhiteSpace().isEmpty { errors.append(FieldError("name", "must not be empty")) }
        if !isColour(pack.colour) { errors.append(FieldError("colour", "must be #rrggbb")) }
        if !(1...maximumVersion).contains(pack.version) { errors.append(FieldError("version", "must be from 1 to \(maximumVersion)")) }
        if pack.exercises.isEmpty { errors.append(FieldError("exercises", "must not be empty")) }
        var seen: [String: Int] = [:]
        for (index, exercise) in pack.exercises.enumerated() {
            let path = "exercises[\(index)]"
            if let earlier = seen[exercise.id] {
                errors.append(FieldError("\(path).id", "'\(exercise.id)' is already used by exercises[\(earlier)]"))
            }
            seen[exercise.id] = index
            errors += problems(in: exercise, path: path, imageExists: imageExists)
        }
        return errors + translationProblems(in: pack)
    }

    static func problems(in exercise: Exercise, path: String, imageExists: ((String) -> Bool)?) -> [FieldError] {
        var errors: [FieldError] = []
        func add(_ field: String, _ message: String) { errors.append(FieldError("\(path).\(field)", message)) }
        if !isIdentifier(exercise.id) { add("id", "must be lower-case letters, digits and single hyphens") }
        for (name, text) in [("name", exercise.name), ("description", exercise.description), ("source", exercise.source)]
        where text.trimmingWhiteSpace().isEmpty {
            add(name, "must not be empty")
        }
        if exercise.conversionAlgorithm.trimmingWhiteSpace().isEmpty { add("conversionAlgorithm", "must not be empty") }
        if exercise.conversionAlgorithm.utf8.count > maxScriptBytes { add("conversionAlgorithm", "must be at most \(maxScriptBytes / 1024) KiB") }
        if exercise.fields.isEmpty { add("fields", "must have at least one field") }
        if let code = exercise.loinc, !isLOINC(code) { add("loinc", "must be a LOINC code: digits, a hyphen and a check digit (8480-6)") }
        for (index, field) in exercise.fields.enumerated() {
            if let code = field.loinc, !isLOINC(code) {
                add("fields[\(index)].loinc", "must be a LOINC code: digits, a hyphen and a check digit (8480-6)")
            }
        }
        var keys: Set<String> = []
        for (index, field) in exercise.fields.enumerated() {
            if !isKey(field.key) { add("fields[\(index)].key", "must be a letter followed by letters or digits") }
            if !keys.insert(field.key).inserted { add("fields[\(index)].key", "'\(field.key)' is used twice") }
            if field.label.trimmingWhiteSpace().isEmpty { add("fields[\(index)].label", "must not be empty") }
            if let label = field.unitLabel, label.trimmingWhiteSpace().isEmpty { add("fields[\(index)].unitLabel", "must not be empty") }
            let units = field.quantity.units.map(\.name)
            if !units.contains(field.unit) { add("fields[\(index)].unit", "must be one of: \(units.joined(separator: ", "))") }
        }
        if !keys.contains(exercise.primaryField) { add("primaryField", "must be the key of one of the fields") }
        for (index, step) in exercise.steps.enumerated() {
            if step.text.trimmingWhiteSpace().isEmpty { add("steps[\(index)].text", "must not be empty") }
            guard let image = step.image else { continue }
            if !isSafeImagePath(image) {
                add("steps[\(index)].image", "must be a relative path of .png, .jpg or .svg inside the pack folder")
            } else if let imageExists, !imageExists(image) {
                add("steps[\(index)].image", "'\(image)' is not in the pack folder")
            }
        }
        if exercise.examples.isEmpty { add("examples", "must have at least one example, so the script is checked") }
        for (index, example) in exercise.examples.enumerated() {
            let examplePath = "examples[\(index)]"
            for key in keys.subtracting(example.values.keys).sorted() { add("\(examplePath).values.\(key)", "is missing") }
            for key in Set(example.values.keys).subtracting(keys).sorted() { add("\(examplePath).values.\(key)", "is not a field of this exercise") }
            if !(0...10).contains(example.score) { add("\(examplePath).score", "must be from 0 to 10") }
            if !(0...130).contains(example.client.age) { add("\(examplePath).client.age", "must be from 0 to 130") }
        }
        return errors
    }

    /// Scripts are short band tables; a bigger one is a mistake or an attack on memory.
    public static let maxScriptBytes = 64 * 1024

    /// `push-ups`, `cooper-12-minute-run`.
    public static func isIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return (1...64).contains(text.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) } }
    }

    /// One to seven digits, a hyphen, one check digit (whether the check digit is right is LOINC's to say).
    static func isLOINC(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && (1...7).contains(parts[0].count) && parts[1].count == 1
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    static func isKey(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.count <= 40 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// `#rrggbb` in lower case, as `HexColour` writes it.
    static func isColour(_ text: String) -> Bool {
        HexColour(text)?.description == text
    }

    /// Relative, without `..` or hidden parts, and an image type: it is served from the pack folder as it is.
    public static func isSafeImagePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) }
        let lowered = path.lowercased()
        return allowed && path.count <= 200 && !parts.contains { $0.isEmpty || $0.hasPrefix(".") }
            && [".png", ".jpg", ".jpeg", ".svg"].contains { lowered.hasSuffix($0) }
    }
}
