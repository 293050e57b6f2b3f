#if PostgreSQL
import Cryptography
import StoreContract
import Foundation
import Synchronization

/// Media bytes in PostgreSQL, where every node of a cluster reaches them: the same sealed chunks as
/// `SealedMediaFiles` writes to files (same keys, nonces and additional data), one row each in `media_chunks`
/// (Migrations/postgres/0002). Calls block on the database, as the protocol allows: its callers run them on
/// threads that may wait. Each chunk is its own short statement, so an upload holds no connection while its
/// bytes are still coming in.
public struct PostgreSQLMediaStorage: MediaStorage {
    let database: PostgreSQLDatabase
    /// 256 KiB: an upload holds at most one chunk in memory until its row is written, so 60 slow uploads hold
    /// 15 MiB (at 1 MiB, 60 held 100 MiB above idle); a 60 MiB video is 240 rows. Each blob keeps the size it was
    /// written with.
    public let chunkSize: Int
    public static let defaultChunkSize = 256 << 10
    /// An unfinished upload older than this was dropped by its node (killed mid-upload): `sweep` removes it.
    static let abandonedAfter: TimeInterval = 3600

    public init(database: PostgreSQLDatabase, chunkSize: Int = defaultChunkSize) {
        self.database = database
        self.chunkSize = chunkSize
    }

    public var isShared: Bool { true }

    public func create(_ id: UUID, key: MediaKey, variant: MediaVariant) throws -> any MediaWriting {
        try database.withMediaConnection { db in
            // A half-written attempt of the same file (a retried preview, say) is replaced.
            try await db.run("DELETE FROM media_blobs WHERE media_id = ? AND variant = ?", id, variant.rawValue)
            try await db.run(
                "INSERT INTO media_blobs (media_id, variant, chunk_size, finished, started_at) VALUES (?, ?, ?, 0, ?)",
                id,
                variant.rawValue,
                chunkSize,
                Date()
            )
        }
        return PostgreSQLMediaWriter(
            database: database,
            id: id,
            variant: variant,
            key: SealedMediaFiles.sealingKey(key, variant),
            chunkSize: chunkSize
        )
    }

    public func open(_ id: UUID, key: MediaKey, length: Int, variant: MediaVariant) throws -> any MediaReading {
        let size: Int? = try database.withMediaConnection { db in
            try await db.query("SELECT chunk_size FROM media_blobs WHERE media_id = ? AND variant = ? AND finished = 1", id, variant.rawValue)
                .first.map { try $0["chunk_size"] }
        }
        guard let size, size > 0 else { throw MediaUnreadable(description: "no stored \(variant.rawValue) for medium \(id.lowercaseHyphenated)") }
        return PostgreSQLMediaReader(
            database: database,
            id: id,
            variant: variant,
            key: SealedMediaFiles.sealingKey(key, variant),
            length: length,
            chunkSize: size
        )
    }

    public func remove(_ ids: [UUID]) throws {
        guard !ids.isEmpty else { return }
        try database.withMediaConnection { db in
            for start in stride(from: 0, to: ids.count, by: 500) {
                let slice = Array(ids[start..<min(start + 500, ids.count)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                try await db.run("DELETE FROM media_blobs WHERE media_id IN (\(marks))", slice)
            }
        }
    }

    public func sweep(keeping: Set<UUID>) throws -> Int {
        try database.withMediaConnection { db in
            let abandoned = Date().addingTimeInterval(-Self.abandonedAfter)
            var removed = try await db.run("DELETE FROM media_blobs WHERE finished = 0 AND started_at < ?", abandoned)
            // Only old ones: another node may have finished an upload whose media row it has not stored yet.
            for row in try await db.query("SELECT DISTINCT media_id FROM media_blobs WHERE finished = 1 AND started_at < ?", abandoned) {
                let id: UUID = try row["media_id"]
                if !keeping.contains(id) { removed += try await db.run("DELETE FROM media_blobs WHERE media_id = ?", id) }
            }
            return removed
        }
    }

    public func holds(_ id: UUID) -> Bool {
        (try? database.withMediaConnection { db in
            try await !db.query("SELECT 1 FROM media_blobs WHERE media_id = ? AND variant = 'original' AND finished = 1", id).isEmpty
        }) ?? false
    }
}

/// One upload being sealed into chunk rows; the blob turns readable at `finish`.
final class PostgreSQLMediaWriter: MediaWriting {
    private struct State: ~Copyable {
        var chunks: MediaChunks
        var done = false
    }

    private let database: PostgreSQLDatabase
    private let id: UUID
    private let variant: MediaVariant
    private let key: [UInt8]
    private let state: Mutex<State>

    init(database: PostgreSQLDatabase, id: UUID, variant: MediaVariant, key: [UInt8], chunkSize: Int) {
        self.database = database
        self.id = id
        self.variant = variant
        self.key = key
        state = Mutex(State(chunks: MediaChunks(size: chunkSize)))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            precondition(!state.done, "write after finish or abort")
            try state.chunks.append(bytes) { chunk, index in try store(chunk, index, last: false) }
        }
    }

    private func store(_ chunk: [UInt8], _ index: Int, last: Bool) throws {
        let sealed = SealedMediaFiles.seal(chunk, key: key, id: id, index: index, last: last)
        try database.withMediaConnection { db in
            try await db.run(
                "INSERT INTO media_chunks (media_id, variant, chunk_index, sealed) VALUES (?, ?, ?, ?)",
                id,
                variant.rawValue,
                index,
                sealed.ciphertext + sealed.tag
            )
        }
    }

    func finish() throws -> (length: Int, sha256: String) {
        try state.withLock { state in
            let stored = try state.chunks.finish { chunk, index in try store(chunk, index, last: true) }
            state.done = true
            try database.withMediaConnection { db in
                try await db.run("UPDATE media_blobs SET finished = 1 WHERE media_id = ? AND variant = ?", id, variant.rawValue)
            }
            return stored
        }
    }

    func abort() {
        let wasDone = state.withLock { state in
            defer { state.done = true }
            return state.done
        }
        guard !wasDone else { return }
        Self.discard(id, variant, in: database)
    }

    deinit {
        // An upload dropped without finish or abort leaves nothing behind. The last reference may go on a thread
        // that must not wait (an event loop, Swift's pool): the rows are removed off it; what a stop cuts short,
        // `sweep` takes after an hour.
        guard !state.withLock({ $0.done }) else { return }
        let (database, id, variant) = (database, id, variant)
        DispatchQueue.global().async { Self.discard(id, variant, in: database) }
    }

    private static func discard(_ id: UUID, _ variant: MediaVariant, in database: PostgreSQLDatabase) {
        _ = try? database.withMediaConnection { db in
            try await db.run("DELETE FROM media_blobs WHERE media_id = ? AND variant = ?", id, variant.rawValue)
        }
    }
}

/// A finished blob, read by range a chunk row at a time; keeps the last chunk it opened, for reads in order.
final class PostgreSQLMediaReader: ChunkedMediaReading {
    let length: Int
    let chunkSize: Int
    private let database: PostgreSQLDatabase
    private let id: UUID
    private let variant: MediaVariant
    private let key: [UInt8]
    private let chunkCount: Int
    private let lastChunk = Mutex<(index: Int, bytes: [UInt8])?>(nil)

    init(database: PostgreSQLDatabase, id: UUID, variant: MediaVariant, key: [UInt8], length: Int, chunkSize: Int) {
        self.database = database
        self.id = id
        self.variant = variant
        self.key = key
        self.length = length
        self.chunkSize = chunkSize
        chunkCount = max(1, (length + chunkSize - 1) / chunkSize)
    }

    func chunk(_ index: Int) throws -> [UInt8] {
        if let kept = lastChunk.withLock({ $0 }), kept.index == index { return kept.bytes }
        let sealed: [UInt8]? = try database.withMediaConnection { db in
            try await db.query(
                "SELECT sealed FROM media_chunks WHERE media_id = ? AND variant = ? AND chunk_index = ?",
                id,
                variant.rawValue,
                index
            ).first.map { try $0["sealed"] }
        }
        let last = index == chunkCount - 1
        let plain = last ? length - index * chunkSize : chunkSize
        guard let sealed, sealed.count == plain + SealedMediaFiles.tagSize else {
            throw MediaUnreadable(description: "medium \(id.lowercaseHyphenated) chunk \(index) is missing or cut short")
        }
        let name = "medium \(id.lowercaseHyphenated)"
        let bytes = try SealedMediaFiles.open(sealed, plain: plain, key: key, id: id, index: index, last: last, name: name)
        lastChunk.withLock { $0 = (index, bytes) }
        return bytes
    }

    func close() {}
}
#endif
