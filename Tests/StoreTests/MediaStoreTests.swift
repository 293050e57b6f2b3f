import Cryptography
import Foundation
import HealthwheelCore
import Store
import StoreContract
import TestSupport
import Testing

/// Media bytes sealed in files (any range reads back; nothing plain on disk; tampering and truncation refused)
/// and media rows (quota in the insert's transaction; every removed row noted, cascades included).
@Suite struct MediaStoreTests {
    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        var value = UInt32(seed)
        return (0..<count).map { _ in
            value = value &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: value >> 24)
        }
    }

    static func store(_ folder: TemporaryDirectory, chunkSize: Int = 1_000) throws -> SealedMediaFiles {
        try SealedMediaFiles(root: folder.url.appendingPathComponent("media"), chunkSize: chunkSize)
    }

    static func write(_ plain: [UInt8], _ storage: SealedMediaFiles, id: UUID, key: MediaKey, pieces: Int = 7) throws -> (length: Int, sha256: String)
    {
        let writer = try storage.create(id, key: key)
        var start = 0
        while start < plain.count {
            let end = min(plain.count, start + pieces * 113)
            try plain[start..<end].withUnsafeBytes { try writer.write($0) }
            start = end
        }
        return try writer.finish()
    }

    @Test(arguments: [1, 999, 1_000, 1_001, 5_000, 12_345]) func anyRangeReadsBackWhatWasWritten(length: Int) throws {
        let folder = TemporaryDirectory()
        let storage = try Self.store(folder)
        let plain = Self.bytes(length)
        let id = UUID()
        let key = MediaKey.random()
        let stored = try Self.write(plain, storage, id: id, key: key)
        #expect(stored.length == length)
        #expect(stored.sha256 == sha256Hex(plain))
        let reader = try storage.open(id, key: key, length: length)
        defer { reader.close() }
        #expect(try reader.read(0..<length) == plain)
        for range in [0..<1, (length - 1)..<length, (length / 3)..<(2 * length / 3), 0..<0] {
            #expect(try reader.read(range) == Array(plain[range]), "\(range)")
        }
    }

    @Test func nothingPlainReachesTheDiskAndAnUnfinishedUploadIsNotReadable() throws {
        let folder = TemporaryDirectory()
        let storage = try Self.store(folder)
        let marker = Array("PLAINTEXT-MARKER-0123456789".utf8)
        let plain = Self.bytes(3_000) + marker + Self.bytes(3_000, seed: 9)
        let id = UUID()
        let key = MediaKey.random()
        let writer = try storage.create(id, key: key)
        try plain.withUnsafeBytes { try writer.write($0) }
        #expect(!storage.holds(id), "not in place before finish")
        #expect(try !filesUnder(folder.url).contains { $0.contains(marker) }, "the incoming file is sealed too")
        _ = try writer.finish()
        #expect(storage.holds(id))
        #expect(try !filesUnder(folder.url).contains { $0.contains(marker) })
        #expect(try !filesUnder(folder.url).contains { $0.contains(Array(plain[0..<64])) })
    }

    @Test func anAbortedUploadLeavesNothing() throws {
        let folder = TemporaryDirectory()
        let storage = try Self.store(folder)
        let id = UUID()
        let writer = try storage.create(id, key: .random())
        try Self.bytes(5_000).withUnsafeBytes { try writer.write($0) }
        writer.abort()
        #expect(!storage.holds(id))
        #expect(try filesUnder(folder.url).isEmpty)
    }

    @Test func aWrongKeyATamperedChunkOrACutFileIsRefused() throws {
        let folder = TemporaryDirectory()
        let storage = try Self.store(folder)
        let id = UUID()
        let key = MediaKey.random()
        let plain = Self.bytes(4_500)
        _ = try Self.write(plain, storage, id: id, key: key)
        #expect(throws: MediaUnreadable.self) { try storage.open(id, key: .random(), length: plain.count).read(0..<10) }
        // Another length moves which chunk is the last: it no longer authenticates.
        #expect(throws: MediaUnreadable.self) { try storage.open(id, key: key, length: 4_000).read(3_500..<4_000) }
        let path = folder.url.appendingPathComponent("media").appendingPathComponent(String(id.uuidString.lowercased().prefix(2)))
            .appendingPathComponent(id.uuidString.lowercased())
        var file = try [UInt8](Data(contentsOf: path))
        file[2_100] ^= 1
        try Data(file).write(to: path)
        let reader = try storage.open(id, key: key, length: plain.count)
        #expect(try reader.read(0..<1_000) == Array(plain[0..<1_000]), "chunks before the damage still open")
        #expect(throws: MediaUnreadable.self) { try reader.read(2_000..<2_010) }
        try Data(file.prefix(file.count - 20)).write(to: path)
        #expect(throws: MediaUnreadable.self) { try storage.open(id, key: key, length: plain.count).read(4_400..<4_500) }
    }

    @Test func aSweepRemovesWhatNoRowKeepsAndUnfinishedUploads() throws {
        let folder = TemporaryDirectory()
        let storage = try Self.store(folder)
        let kept = UUID()
        let orphan = UUID()
        _ = try Self.write(Self.bytes(100), storage, id: kept, key: .random())
        _ = try Self.write(Self.bytes(100), storage, id: orphan, key: .random())
        let unfinished = try storage.create(UUID(), key: .random())
        try Self.bytes(100).withUnsafeBytes { try unfinished.write($0) }
        #expect(try storage.sweep(keeping: [kept]) == 2)
        #expect(storage.holds(kept) && !storage.holds(orphan))
        #expect(try filesUnder(folder.url).count == 1)
        unfinished.abort()
    }

    static func media(_ result: AssessmentResult, bytes: Int, at now: Date) -> MediaFile {
        MediaFile(
            id: UUID(),
            companyId: result.companyId,
            clientId: result.clientId,
            resultId: result.id,
            format: .jpeg,
            bytes: bytes,
            sha256: String(repeating: "a", count: 64),
            width: 640,
            height: 480,
            caption: "Knee angle",
            createdBy: result.trainerId,
            createdAt: now
        )
    }

    @Test func rowsKeepTheirKeyAndTheQuotaHoldsInTheInsertsTransaction() async throws {
        let (fixture, result) = try await ResultRepositoryTests.setUp()
        let media = fixture.store.media
        let first = Self.media(result, bytes: 600, at: fixture.clock.now)
        let key = MediaKey.random()
        try await media.insert(first, key: key, quota: 1_000, audit: .byTest)
        let found = try #require(try await media.find(first.id, in: result.companyId))
        #expect(found.file == first && found.key == key)
        #expect(try await media.find(first.id, in: UUID()) == nil, "another company's id is not found")
        await #expect(throws: MediaQuotaReached(quota: 1_000, used: 600)) {
            try await media.insert(Self.media(result, bytes: 401, at: fixture.clock.now), key: .random(), quota: 1_000, audit: .byTest)
        }
        try await media.insert(Self.media(result, bytes: 400, at: fixture.clock.now), key: .random(), quota: 1_000, audit: .byTest)
        #expect(try await media.usedBytes(by: result.companyId) == 1_000)
        #expect(try await media.list(result: result.id, in: result.companyId).count == 2)
        let captioned = try await media.setCaption("Left knee", of: first.id, in: result.companyId, at: fixture.clock.now, audit: { _ in .byTest })
        #expect(captioned?.caption == "Left knee")
        #expect(try await media.setCaption("x", of: first.id, in: UUID(), at: fixture.clock.now, audit: { _ in .byTest }) == nil)
    }

    @Test func mediaListInUploadOrderEvenWithinOneInstant() async throws {
        let (fixture, result) = try await ResultRepositoryTests.setUp()
        let media = fixture.store.media
        // Same time, ids that sort against the order of upload: the order is still the upload's.
        let files = (0..<5).map { _ in Self.media(result, bytes: 10, at: fixture.clock.now) }.sorted { $0.id.uuidString > $1.id.uuidString }
        for file in files { try await media.insert(file, key: .random(), quota: 1 << 30, audit: .byTest) }
        #expect(try await media.list(result: result.id, in: result.companyId).map(\.id) == files.map(\.id))
        #expect(try await media.list(results: [result.id], in: result.companyId)[result.id]?.map(\.id) == files.map(\.id))
    }

    @Test func everyRemovedRowIsNotedIncludingThoseACascadeRemoves() async throws {
        let (fixture, result) = try await ResultRepositoryTests.setUp()
        let media = fixture.store.media
        let alone = Self.media(result, bytes: 10, at: fixture.clock.now)
        let withResult = Self.media(result, bytes: 10, at: fixture.clock.now)
        for file in [alone, withResult] { try await media.insert(file, key: .random(), quota: 1 << 30, audit: .byTest) }
        #expect(try await media.delete(alone.id, in: result.companyId, audit: { _ in .byTest }) == alone)
        #expect(try await media.removed() == [alone.id])
        #expect(try await fixture.store.results.delete(result.id, in: result.companyId, by: result.trainerId, at: Date()))
        #expect(Set(try await media.removed()) == [alone.id, withResult.id])
        #expect(try await media.allIDs().isEmpty)
        try await media.forgetRemoved([alone.id, withResult.id])
        #expect(try await media.removed().isEmpty)
    }
}

func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined()
}
