import HealthwheelCore

/// A pack read from a file and checked whole (`ExercisePackImport.check`), not yet stored.
public struct ExercisePackFile: Sendable {
    /// The file's name, for messages (`strength.json`).
    public let name: String
    /// The pack as read and checked: shape, scripts and examples, and no id shared with another file.
    public let pack: ExercisePack
}
