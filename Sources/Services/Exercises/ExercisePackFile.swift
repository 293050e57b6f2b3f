import HealthwheelCore

/// A pack read from a file and checked whole (`ExercisePackImport.check`), not yet stored.
public struct ExercisePackFile: Sendable {
    public let name: String
    public let pack: ExercisePack
}
