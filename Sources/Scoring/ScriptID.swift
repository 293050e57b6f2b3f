/// One compiled script in the cache: an exercise's conversion algorithm at one pack version.
///
/// Each Lua state compiles a `ScriptID` once and reuses the function; the same id and version must therefore
/// always come with the same source (a new source means a new version).
public struct ScriptID: Sendable, Hashable {
    /// The key's name: Services passes `<exercise id>@<hex of the source's SHA-256, first 16 bytes>`, so an edited
    /// script is a new key.
    public var exerciseId: String
    /// Services passes 0, the digest in `exerciseId` already telling sources apart.
    public var version: Int

    /// A cache key; the caller promises the same key always comes with the same source.
    public init(exerciseId: String, version: Int) {
        self.exerciseId = exerciseId
        self.version = version
    }
}
