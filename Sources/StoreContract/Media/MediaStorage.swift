import Foundation

/// Where media bytes live, sealed: the embedded default keeps one file per media item under the data folder
/// (`SealedMediaFiles`); a store every node shares (step 10's PostgreSQL) implements the same calls. Every call
/// may block on the disk: call from a thread that may wait, never from Swift's cooperative pool.
public protocol MediaStorage: Sendable {
    /// Starts writing `id`'s bytes (the upload itself, or a variant made from it), sealed under `key` (a variant
    /// under a key derived from it); nothing is readable until `finish`.
    func create(_ id: UUID, key: MediaKey, variant: MediaVariant) throws -> any MediaWriting
    /// Opens `id`'s bytes (`length` plain bytes, as its row says) to read any range of them.
    func open(_ id: UUID, key: MediaKey, length: Int, variant: MediaVariant) throws -> any MediaReading
    /// Removes the files of `ids`, every variant; ids it does not hold are skipped.
    func remove(_ ids: [UUID]) throws
    /// After a crash: removes unfinished uploads, and files that no id in `keeping` refers to. Returns how many.
    func sweep(keeping: Set<UUID>) throws -> Int
    /// Whether a finished file for `id` is held (for tests and backups).
    func holds(_ id: UUID) -> Bool
    /// Whether other nodes upload into it too (PostgreSQL): at start-up their uploads may be under way.
    var isShared: Bool { get }
}

/// Which file of a media item: the upload as stored, or the preview made from a photo when it was stored (a JPEG
/// fitting 1024 × 1024, upright, without metadata) that thumbnails and reports are drawn from.
public enum MediaVariant: String, Sendable, CaseIterable {
    /// The file as uploaded (a photo without its GPS block).
    case original
    /// A photo's upright JPEG fitting 1024 pixels: thumbnails above `small`'s size are drawn from it.
    case preview
    /// A photo's JPEG fitting 320 pixels, made from the preview: list thumbnails and report pictures.
    case small
}

extension MediaStorage {
    public func create(_ id: UUID, key: MediaKey) throws -> any MediaWriting { try create(id, key: key, variant: .original) }

    public func open(_ id: UUID, key: MediaKey, length: Int) throws -> any MediaReading {
        try open(id, key: key, length: length, variant: .original)
    }
}

/// One upload's bytes on their way in: appended in order, then finished (durable and readable) or aborted
/// (nothing left behind).
public protocol MediaWriting: AnyObject, Sendable {
    /// Appends plain bytes; they are sealed as whole chunks fill.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Seals the rest, makes the file durable, and puts it in place. Returns the plain length and its SHA-256.
    func finish() throws -> (length: Int, sha256: String)
    /// Drops everything written so far.
    func abort()
}

/// A stored file's bytes, read by range.
public protocol MediaReading: AnyObject, Sendable {
    /// Plain bytes in all.
    var length: Int { get }
    /// The plain bytes at `range` (within `0..<length`), authenticated before they are returned.
    func read(_ range: Range<Int>) throws -> [UInt8]
    /// The plain bytes at `range` as pieces of at most one chunk each (no piece larger than a chunk is built).
    func readPieces(_ range: Range<Int>) throws -> [[UInt8]]
    /// Bytes per sealed chunk: reading whole chunks costs one decryption each.
    var chunkSize: Int { get }
    /// Lets the file go (also done when the reader is dropped).
    func close()
}

/// A sealed file that does not open: tampered with, truncated, or under another key.
public struct MediaUnreadable: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
