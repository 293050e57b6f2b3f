/// The keys a JSON file format knows at each level, and the objects and arrays of objects below them: what
/// `unknownKeys(in:)` holds a document to, so that a typo in a pack or questionnaire is named, not dropped.
public struct JSONShape: Sendable {
    /// Every key allowed at this level.
    public let keys: Set<String>
    /// The shape of the object under a key.
    public let objects: [String: JSONShape]
    /// The shape of each object in the array under a key.
    public let arrays: [String: JSONShape]
    /// The shape of each value in the object under a key whose own keys are names the format does not fix
    /// (language codes, exercise ids).
    public let maps: [String: JSONShape]

    /// A level of a format: its keys and the shapes below them.
    public init(keys: Set<String>, objects: [String: JSONShape] = [:], arrays: [String: JSONShape] = [:], maps: [String: JSONShape] = [:]) {
        self.keys = keys
        self.objects = objects
        self.arrays = arrays
        self.maps = maps
    }

    /// The path of every key the shape does not know (`exercises[2].fields[0].unti`): this level's first, then
    /// those below, by key.
    /// Values of the wrong type are left to the decoder, which names them.
    public func unknownKeys(in value: JSONValue, at path: String = "") -> [String] {
        guard case .object(let object) = value else { return [] }
        func below(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        var paths = object.keys.sorted().filter { !keys.contains($0) }.map(below)
        for (key, shape) in objects.sorted(by: { $0.key < $1.key }) {
            if let inner = object[key] { paths += shape.unknownKeys(in: inner, at: below(key)) }
        }
        for (key, shape) in arrays.sorted(by: { $0.key < $1.key }) {
            guard case .array(let items)? = object[key] else { continue }
            for (index, item) in items.enumerated() { paths += shape.unknownKeys(in: item, at: "\(below(key))[\(index)]") }
        }
        for (key, shape) in maps.sorted(by: { $0.key < $1.key }) {
            guard case .object(let entries)? = object[key] else { continue }
            for (name, item) in entries.sorted(by: { $0.key < $1.key }) { paths += shape.unknownKeys(in: item, at: "\(below(key)).\(name)") }
        }
        return paths
    }
}
