/// One compiled script in the cache: an exercise's conversion algorithm at one pack version.
///
/// Each Lua state compiles a `ScriptID` once and reuses the function; the same id and version must therefore
/// always come with the same source (a new source means a new version).
public struct ScriptID: Sendable, Hashable {
    public var exerciseId: String
    public var version: Int

    public init(exerciseId: String, version: Int) {
        self.exerciseId = exerciseId
        self.version = version
    }
}
