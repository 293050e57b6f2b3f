import Cryptography
import Foundation
import TestSupport
import Testing

@testable import Zip

/// Archives written by `ZipStream` read back by Python's `zipfile` (every CRC checked), stored and deflated, with
/// UTF-8 names, empty entries, entries fed in many pieces, and the ZIP64 records of a far offset.
@Suite struct ZipStreamTests {
    static func sha256(_ bytes: [UInt8]) -> String { SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined() }

    /// Writes `entries` (fed in `piece`-byte writes) and reads the archive back with Python.
    func roundTrip(_ entries: [(String, ZipStream.Method, [UInt8])], piece: Int, stream: ZipStream = ZipStream()) throws -> [ZipReader.Entry] {
        var archive: [UInt8] = []
        let modified = Date(timeIntervalSince1970: 1_800_000_000)
        for (name, method, bytes) in entries {
            archive += stream.begin(name, method: method, modified: modified)
            for start in stride(from: 0, to: bytes.count, by: piece) {
                archive += try stream.write(Array(bytes[start..<min(start + piece, bytes.count)]))
            }
            archive += try stream.end()
        }
        archive += stream.finish()
        #expect(UInt64(archive.count) == stream.offset)
        return try ZipReader(archive).entries
    }

    @Test func storedAndDeflatedEntriesReadBackByteForByte() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Array(String(repeating: #"{"heartRate": 61, "observations": "steady"}, "#, count: 20_000).utf8)
        let entries: [(String, ZipStream.Method, [UInt8])] = [
            ("README.txt", .deflated, Array("What each file holds.\n".utf8)),
            ("results.json", .deflated, text),
            ("media/photo-ñandú.jpg", .stored, noise),
            ("empty.json", .deflated, []),
            ("empty.bin", .stored, []),
        ]
        let read = try roundTrip(entries, piece: 65_521)
        #expect(read.map(\.name) == entries.map(\.0))
        #expect(read.map(\.size) == entries.map(\.2.count))
        #expect(read.map(\.method) == [8, 8, 0, 8, 0])
        #expect(read.map(\.sha256) == entries.map { Self.sha256($0.2) })
        #expect(read.allSatisfy { !$0.zip64 })
    }

    @Test func deflateShrinksTextAndOneByteWritesWork() throws {
        let text = Array(String(repeating: "a line of an export\n", count: 5_000).utf8)
        let stream = ZipStream()
        var archive = stream.begin("a.txt", method: .deflated, modified: Date())
        for byte in text { archive += try stream.write([byte]) }
        archive += try stream.end()
        archive += stream.finish()
        #expect(archive.count < text.count / 20, "100 KB of repeated lines deflate to a few hundred bytes")
        let read = try roundTrip([("a.txt", .deflated, text)], piece: 1)
        #expect(read.first?.sha256 == Self.sha256(text))
    }

    @Test func farOffsetsTakeZIP64Records() throws {
        // The threshold is lowered so that the records are written and read without gigabytes of data.
        let entries: [(String, ZipStream.Method, [UInt8])] = (0..<4).map { ("part-\($0).bin", .stored, Array(repeating: UInt8($0), count: 700)) }
        let read = try roundTrip(entries, piece: 256, stream: ZipStream(zip64Beyond: 1_000))
        #expect(read.map(\.name) == entries.map(\.0))
        #expect(read.map(\.sha256) == entries.map { Self.sha256($0.2) })
        #expect(read.allSatisfy { $0.zip64 })
    }
}
