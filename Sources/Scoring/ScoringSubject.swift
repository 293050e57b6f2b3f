/// Who the score is for, as the scoring contract (docs/ARCHITECTURE.md §6) exposes it to scripts.
public struct ScoringSubject: Sendable, Hashable {
    /// `"male"` or `"female"`: the global `sex`.
    public var sex: String
    /// Whole years at the result's date: the global `age`.
    public var age: Int
    /// Metres, or `nil` when unknown: the global `height`.
    public var height: Double?
    /// Kilograms, or `nil` when unknown: the global `mass`.
    public var mass: Double?

    /// The subject as the script will see it; Services builds it from a `Subject` (kept with the result).
    public init(sex: String, age: Int, height: Double?, mass: Double?) {
        self.sex = sex
        self.age = age
        self.height = height
        self.mass = mass
    }
}
