import Cryptography
import Foundation
import StoreContract
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The embedded media storage: one file per item under `DATA_DIR/media/`, sealed with AES-256-GCM
/// under the item's own random key, which only its database row holds. Plain bytes never reach the disk, not even
/// while an upload is incoming.
///
/// A file is a 16-byte header (`HWMEDIA1`, the chunk size) and chunks of `chunkSize` plain bytes, each sealed on its
/// own (ciphertext, then its 16-byte tag), so any range is read by opening only the chunks it covers. A chunk's
/// nonce is its index (unique under a key used for one file only); its additional data binds it to the file's id,
/// its index and whether it is the last, so chunks cannot be moved, swapped between files or cut off unseen.
///
/// An upload is written to `media/incoming/ID.part`, synced, and renamed into `media/XX/ID` (XX: the id's first two
/// hex digits, so no folder grows huge). `sweep` clears what a crash left behind.
public struct SealedMediaFiles: MediaStorage {
    public let root: URL
    public let chunkSize: Int

    /// 128 KiB: every buffer a chunk needs stays under glibc's mmap threshold (`serve` fixes it at 256 KiB), so
    /// they are reused from the heap instead of being mapped, faulted in and unmapped chunk after chunk.
    public static let defaultChunkSize = 128 << 10
    static let magic = Array("HWMEDIA1".utf8)
    static let headerSize = 16
    static let tagSize = 16

    /// Storage under `root` (created when missing, owner-only); `chunkSize` is for new files (files say their own).
    public init(root: URL, chunkSize: Int = defaultChunkSize) throws {
        self.root = root
        self.chunkSize = chunkSize
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(root.path, 0o700)
    }

    var incoming: URL { root.appendingPathComponent("incoming") }

    func path(of id: UUID, _ variant: MediaVariant = .original) -> URL {
        root.appendingPathComponent(Self.relativePath(of: id, variant))
    }

    /// `XX/id` under the media folder (XX: the id's first two hex digits); a variant adds `.variant`.
    static func relativePath(of id: UUID, _ variant: MediaVariant = .original) -> String {
        let name = id.lowercaseHyphenated
        return "\(name.prefix(2))/\(name)" + (variant == .original ? "" : ".\(variant.rawValue)")
    }

    /// The original's key as stored; a variant's derived from it (HKDF-SHA256), so no two files share a key and
    /// their chunk nonces can never meet.
    static func sealingKey(_ key: MediaKey, _ variant: MediaVariant) -> [UInt8] {
        guard variant != .original else { return key.bytes }
        return HKDFSHA256.derive(key: key.bytes, info: Array("healthwheel media \(variant.rawValue)".utf8), count: 32)
    }

    public func create(_ id: UUID, key: MediaKey, variant: MediaVariant) throws -> any MediaWriting {
        let name = id.lowercaseHyphenated + (variant == .original ? "" : ".\(variant.rawValue)")
        return try SealedMediaWriter(
            id: id,
            key: Self.sealingKey(key, variant),
            chunkSize: chunkSize,
            partial: incoming.appendingPathComponent("\(name).part"),
            final: path(of: id, variant)
        )
    }

    public func open(_ id: UUID, key: MediaKey, length: Int, variant: MediaVariant) throws -> any MediaReading {
        try SealedMediaReader(id: id, key: Self.sealingKey(key, variant), path: path(of: id, variant), length: length)
    }

    public func remove(_ ids: [UUID]) throws {
        for id in ids {
            for variant in MediaVariant.allCases where unlink(path(of: id, variant).path) != 0 && errno != ENOENT {
                throw StoreError.cannotOpen(path: path(of: id, variant).path, reason: String(cString: strerror(errno)))
            }
        }
    }

    public func holds(_ id: UUID) -> Bool { FileManager.default.fileExists(atPath: path(of: id).path) }

    public var isShared: Bool { false }

    public func sweep(keeping: Set<UUID>) throws -> Int {
        var removed = 0
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: incoming.path)) ?? [] {
            try manager.removeItem(at: incoming.appendingPathComponent(name))
            removed += 1
        }
        for folder in try manager.contentsOfDirectory(atPath: root.path) where folder.count == 2 {
            let folderURL = root.appendingPathComponent(folder)
            for name in (try? manager.contentsOfDirectory(atPath: folderURL.path)) ?? [] {
                let base = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
                guard let id = UUID(uuidString: base), keeping.contains(id) else {
                    try manager.removeItem(at: folderURL.appendingPathComponent(name))
                    removed += 1
                    continue
                }
            }
        }
        return removed
    }

    static func nonce(_ index: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: AES256GCM.nonceSize)
        for byte in 0..<8 { bytes[4 + byte] = UInt8(truncatingIfNeeded: index >> (56 - 8 * byte)) }
        return bytes
    }

    static func authenticated(_ id: UUID, _ index: Int, last: Bool) -> [UInt8] {
        let uuid = withUnsafeBytes(of: id.uuid) { Array($0) }
        return uuid + (0..<8).map { UInt8(truncatingIfNeeded: index >> (56 - 8 * $0)) } + [last ? 1 : 0]
    }

    /// Chunk `index` of file `id` sealed: its ciphertext, then its tag.
    static func seal(_ plain: [UInt8], key: [UInt8], id: UUID, index: Int, last: Bool) -> (ciphertext: [UInt8], tag: [UInt8]) {
        AES256GCM.seal(plain, key: key, nonce: nonce(index), authenticating: authenticated(id, index, last: last))
    }

    /// Chunk `index` of file `id` opened from its ciphertext and tag (`plain` bytes, then the tag); throws
    /// `MediaUnreadable` naming `name` when it does not open.
    static func open(_ sealed: [UInt8], plain: Int, key: [UInt8], id: UUID, index: Int, last: Bool, name: String) throws -> [UInt8] {
        do {
            return try AES256GCM.open(
                sealed[0..<plain],
                tag: sealed[plain...],
                key: key,
                nonce: nonce(index),
                authenticating: authenticated(id, index, last: last)
            )
        } catch {
            throw MediaUnreadable(description: "\(name) chunk \(index) does not open under its key: \(error)")
        }
    }
}

/// An upload's plain bytes cut into chunks as they come in, for either storage: a full chunk is sealed only once
/// more bytes show it is not the last, so the last one is always known when it is sealed.
struct MediaChunks: ~Copyable {
    let size: Int
    private(set) var pending: [UInt8] = []
    private(set) var index = 0
    private(set) var length = 0
    private let hash = SHA256.Hasher()

    init(size: Int) {
        self.size = size
        pending.reserveCapacity(size)
    }

    /// Adds `bytes`, handing each full chunk that more bytes follow to `seal` with its index (never the last).
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ seal: (_ chunk: [UInt8], _ index: Int) throws -> Void) throws {
        hash.update(bytes)
        length += bytes.count
        var offset = 0
        while offset < bytes.count {
            if pending.count == size { try handOn(seal) }
            let take = min(size - pending.count, bytes.count - offset)
            pending.append(contentsOf: bytes[offset..<offset + take])
            offset += take
        }
    }

    /// Hands the last chunk (possibly empty) to `seal`; returns the plain length and its SHA-256 in hex.
    mutating func finish(_ seal: (_ chunk: [UInt8], _ index: Int) throws -> Void) throws -> (length: Int, sha256: String) {
        try handOn(seal)
        return (length, hash.finalize().map { String(format: "%02x", $0) }.joined())
    }

    private mutating func handOn(_ seal: (_ chunk: [UInt8], _ index: Int) throws -> Void) throws {
        try seal(pending, index)
        pending.removeAll(keepingCapacity: true)
        index += 1
    }
}

/// A stored file read by range, a chunk at a time: what both storages' readers share.
protocol ChunkedMediaReading: MediaReading {
    /// The plain bytes of chunk `index`, authenticated.
    func chunk(_ index: Int) throws -> [UInt8]
}

extension ChunkedMediaReading {
    func read(_ range: Range<Int>) throws -> [UInt8] {
        Array(try readPieces(range).joined())
    }

    func readPieces(_ range: Range<Int>) throws -> [[UInt8]] {
        precondition(range.lowerBound >= 0 && range.upperBound <= length)
        var pieces: [[UInt8]] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let index = position / chunkSize
            let chunk = try self.chunk(index)
            let start = position - index * chunkSize
            let end = min(chunk.count, range.upperBound - index * chunkSize)
            pieces.append(start == 0 && end == chunk.count ? chunk : Array(chunk[start..<end]))
            position = index * chunkSize + end
        }
        return pieces
    }
}

/// One upload being sealed into its `.part` file.
final class SealedMediaWriter: MediaWriting {
    private struct State: ~Copyable {
        var chunks: MediaChunks
        var file: File
        var done = false
    }

    /// The `.part` file and how far it is written.
    private struct File {
        var descriptor: Int32
        /// Bytes of the file already handed to the disk (`sync_file_range`), so that `finish`'s fsync has little left.
        var flushed = 0
        var written = SealedMediaFiles.headerSize
    }

    private let id: UUID
    private let key: [UInt8]
    private let partial: URL
    private let final: URL
    private let state: Mutex<State>

    init(id: UUID, key: [UInt8], chunkSize: Int, partial: URL, final: URL) throws {
        self.id = id
        self.key = key
        self.partial = partial
        self.final = final
        let descriptor = Glibc.open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: partial.path, reason: String(cString: strerror(errno))) }
        var header = SealedMediaFiles.magic + [UInt8](repeating: 0, count: 8)
        for byte in 0..<4 { header[8 + byte] = UInt8(truncatingIfNeeded: chunkSize >> (24 - 8 * byte)) }
        state = Mutex(State(chunks: MediaChunks(size: chunkSize), file: File(descriptor: descriptor)))
        try state.withLock { state in try Self.writeAll(state.file.descriptor, header, path: partial) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            precondition(!state.done, "write after finish or abort")
            try state.chunks.append(bytes) { chunk, index in try seal(chunk, index, last: false, &state.file) }
        }
    }

    private func seal(_ chunk: [UInt8], _ index: Int, last: Bool, _ file: inout File) throws {
        let sealed = SealedMediaFiles.seal(chunk, key: key, id: id, index: index, last: last)
        try Self.writeAll(file.descriptor, sealed.ciphertext, path: partial)
        try Self.writeAll(file.descriptor, sealed.tag, path: partial)
        file.written += sealed.ciphertext.count + sealed.tag.count
        // Start writing out each 4 MiB as it fills, without waiting: the disk works while the upload comes in.
        if file.written - file.flushed >= 4 << 20 {
            _ = Self.syncFileRange?(file.descriptor, Int64(file.flushed), Int64(file.written - file.flushed), Self.startWriting)
            file.flushed = file.written
        }
    }

    func finish() throws -> (length: Int, sha256: String) {
        try state.withLock { state in
            let stored = try state.chunks.finish { chunk, index in try seal(chunk, index, last: true, &state.file) }
            state.done = true
            guard fsync(state.file.descriptor) == 0 else { throw StoreError.cannotOpen(path: partial.path, reason: String(cString: strerror(errno))) }
            close(state.file.descriptor)
            let folder = final.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard rename(partial.path, final.path) == 0 else {
                throw StoreError.cannotOpen(path: final.path, reason: String(cString: strerror(errno)))
            }
            for directory in [folder, folder.deletingLastPathComponent()] { Self.syncDirectory(directory) }
            return stored
        }
    }

    func abort() {
        state.withLock { state in
            guard !state.done else { return }
            state.done = true
            close(state.file.descriptor)
            unlink(partial.path)
        }
    }

    deinit {
        // An upload dropped without finish or abort leaves nothing behind.
        abort()
    }

    static func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes, path: URL) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw StoreError.cannotOpen(path: path.path, reason: String(cString: strerror(errno))) }
                offset += written
            }
        }
    }

    /// Linux's `sync_file_range` (hidden behind _GNU_SOURCE in <fcntl.h>), looked up once; with
    /// `SYNC_FILE_RANGE_WRITE` it starts writing pages out and returns at once.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0),
        "sync_file_range"
    ).map { unsafeBitCast($0, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self) }
    private static let startWriting: UInt32 = 2

    static func syncDirectory(_ directory: URL) {
        let descriptor = Glibc.open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

/// A finished file, opened for reading ranges; keeps the last chunk it opened, for reads in order.
final class SealedMediaReader: ChunkedMediaReading {
    let length: Int
    let chunkSize: Int
    private let id: UUID
    private let key: [UInt8]
    private let path: URL
    private let descriptor: Int32
    private let chunkCount: Int
    private let closed = Mutex(false)
    private let lastChunk = Mutex<(index: Int, bytes: [UInt8])?>(nil)

    init(id: UUID, key: [UInt8], path: URL, length: Int) throws {
        self.id = id
        self.key = key
        self.path = path
        self.length = length
        let descriptor = Glibc.open(path.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: path.path, reason: String(cString: strerror(errno))) }
        self.descriptor = descriptor
        var header = [UInt8](repeating: 0, count: SealedMediaFiles.headerSize)
        let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, SealedMediaFiles.headerSize, 0) }
        let size = header[8..<12].reduce(0) { $0 << 8 | Int($1) }
        guard read == SealedMediaFiles.headerSize, Array(header[0..<8]) == SealedMediaFiles.magic, size > 0 else {
            Glibc.close(descriptor)
            throw MediaUnreadable(description: "\(path.lastPathComponent) is not a sealed media file")
        }
        chunkSize = size
        chunkCount = max(1, (length + size - 1) / size)
    }

    func chunk(_ index: Int) throws -> [UInt8] {
        if let kept = lastChunk.withLock({ $0 }), kept.index == index { return kept.bytes }
        let last = index == chunkCount - 1
        let plain = last ? length - index * chunkSize : chunkSize
        let sealed = plain + SealedMediaFiles.tagSize
        var buffer = [UInt8](repeating: 0, count: sealed)
        let offset = SealedMediaFiles.headerSize + index * (chunkSize + SealedMediaFiles.tagSize)
        var done = 0
        while done < sealed {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, sealed - done, off_t(offset + done)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw MediaUnreadable(description: "\(path.lastPathComponent) is shorter than its length says") }
            done += count
        }
        let bytes = try SealedMediaFiles.open(buffer, plain: plain, key: key, id: id, index: index, last: last, name: path.lastPathComponent)
        lastChunk.withLock { $0 = (index, bytes) }
        return bytes
    }

    func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        Glibc.close(descriptor)
    }

    deinit {
        // A download the client walked away from never calls close.
        close()
    }
}
