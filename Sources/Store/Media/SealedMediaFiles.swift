import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The embedded media storage: one file per item under `DATA_DIR/media/`, sealed with AES-256-GCM (swift-crypto)
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
    static func sealingKey(_ key: MediaKey, _ variant: MediaVariant) -> SymmetricKey {
        let original = SymmetricKey(data: key.bytes)
        guard variant != .original else { return original }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: original,
            info: Array("healthwheel media \(variant.rawValue)".utf8),
            outputByteCount: 32
        )
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

    static func nonce(_ index: Int) throws -> AES.GCM.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        for byte in 0..<8 { bytes[4 + byte] = UInt8(truncatingIfNeeded: index >> (56 - 8 * byte)) }
        return try AES.GCM.Nonce(data: bytes)
    }

    static func authenticated(_ id: UUID, _ index: Int, last: Bool) -> [UInt8] {
        let uuid = withUnsafeBytes(of: id.uuid) { Array($0) }
        return uuid + (0..<8).map { UInt8(truncatingIfNeeded: index >> (56 - 8 * $0)) } + [last ? 1 : 0]
    }
}

/// One upload being sealed into its `.part` file.
final class SealedMediaWriter: MediaWriting {
    private struct State {
        var descriptor: Int32
        /// Plain bytes not yet sealed: up to one chunk, sealed only once more bytes show it is not the last.
        var pending: [UInt8]
        var index = 0
        var length = 0
        var hash = SHA256()
        var done = false
        /// Bytes of the file already handed to the disk (`sync_file_range`), so that `finish`'s fsync has little left.
        var flushed = 0
        var written = SealedMediaFiles.headerSize
    }

    private let id: UUID
    private let key: SymmetricKey
    private let chunkSize: Int
    private let partial: URL
    private let final: URL
    private let state: Mutex<State>

    init(id: UUID, key: SymmetricKey, chunkSize: Int, partial: URL, final: URL) throws {
        self.id = id
        self.key = key
        self.chunkSize = chunkSize
        self.partial = partial
        self.final = final
        let descriptor = Glibc.open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: partial.path, reason: String(cString: strerror(errno))) }
        var header = SealedMediaFiles.magic + [UInt8](repeating: 0, count: 8)
        for byte in 0..<4 { header[8 + byte] = UInt8(truncatingIfNeeded: chunkSize >> (24 - 8 * byte)) }
        var pending: [UInt8] = []
        pending.reserveCapacity(chunkSize)
        state = Mutex(State(descriptor: descriptor, pending: pending))
        try state.withLock { state in try Self.writeAll(state.descriptor, header, path: partial) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try state.withLock { state in
            precondition(!state.done, "write after finish or abort")
            state.hash.update(bufferPointer: bytes)
            state.length += bytes.count
            var offset = 0
            while offset < bytes.count {
                if state.pending.count == chunkSize { try seal(&state, last: false) }
                let take = min(chunkSize - state.pending.count, bytes.count - offset)
                state.pending.append(contentsOf: bytes[offset..<offset + take])
                offset += take
            }
        }
    }

    private func seal(_ state: inout State, last: Bool) throws {
        let box = try AES.GCM.seal(
            state.pending,
            using: key,
            nonce: SealedMediaFiles.nonce(state.index),
            authenticating: SealedMediaFiles.authenticated(id, state.index, last: last)
        )
        try Self.writeAll(state.descriptor, box.ciphertext, path: partial)
        try Self.writeAll(state.descriptor, box.tag, path: partial)
        state.written += box.ciphertext.count + box.tag.count
        state.pending.removeAll(keepingCapacity: true)
        state.index += 1
        // Start writing out each 4 MiB as it fills, without waiting: the disk works while the upload comes in.
        if state.written - state.flushed >= 4 << 20 {
            _ = Self.syncFileRange?(state.descriptor, Int64(state.flushed), Int64(state.written - state.flushed), Self.startWriting)
            state.flushed = state.written
        }
    }

    func finish() throws -> (length: Int, sha256: String) {
        try state.withLock { state in
            try seal(&state, last: true)
            state.done = true
            guard fsync(state.descriptor) == 0 else { throw StoreError.cannotOpen(path: partial.path, reason: String(cString: strerror(errno))) }
            close(state.descriptor)
            let folder = final.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard rename(partial.path, final.path) == 0 else {
                throw StoreError.cannotOpen(path: final.path, reason: String(cString: strerror(errno)))
            }
            for directory in [folder, folder.deletingLastPathComponent()] { Self.syncDirectory(directory) }
            return (state.length, state.hash.finalize().map { String(format: "%02x", $0) }.joined())
        }
    }

    func abort() {
        state.withLock { state in
            guard !state.done else { return }
            state.done = true
            close(state.descriptor)
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
final class SealedMediaReader: MediaReading {
    let length: Int
    let chunkSize: Int
    private let id: UUID
    private let key: SymmetricKey
    private let path: URL
    private let descriptor: Int32
    private let chunkCount: Int
    private let closed = Mutex(false)
    private let lastChunk = Mutex<(index: Int, bytes: [UInt8])?>(nil)

    init(id: UUID, key: SymmetricKey, path: URL, length: Int) throws {
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

    private func chunk(_ index: Int) throws -> [UInt8] {
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
        do {
            let box = try AES.GCM.SealedBox(nonce: SealedMediaFiles.nonce(index), ciphertext: buffer[0..<plain], tag: buffer[plain...])
            let opened = try AES.GCM.open(box, using: key, authenticating: SealedMediaFiles.authenticated(id, index, last: last))
            let bytes = Array(opened)
            lastChunk.withLock { $0 = (index, bytes) }
            return bytes
        } catch {
            throw MediaUnreadable(description: "\(path.lastPathComponent) chunk \(index) does not open under its key: \(error)")
        }
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
