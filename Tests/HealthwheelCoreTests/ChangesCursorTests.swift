import HealthwheelCore
import Testing

/// The changes feed's cursor: opaque, read back exactly, and able to tell another history from its own.
struct ChangesCursorTests {
    static let hash: [UInt8] = Array(0..<32)

    @Test func aTokenReadsBackAsTheSameCursor() throws {
        for cursor in [ChangesCursor.start, ChangesCursor(after: 1, hash: Self.hash), ChangesCursor(after: Int64.max, hash: Self.hash)] {
            let token = cursor.token
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(token)")
            #expect(ChangesCursor(token: token) == cursor)
        }
        #expect(ChangesCursor(after: 42, hash: Self.hash).check == Array(0..<8))
    }

    @Test func tokensThisServerDidNotHandOutAreRefused() {
        let valid = ChangesCursor(after: 7, hash: Self.hash).token
        for token in [
            "", "abc", "!!!", String(valid.dropLast(3)), valid + "AAAA", String(repeating: "A", count: 40),
            // Version 2, and the start with a check, and a later place without one.
            Base64URL.encode([2, 0, 0, 0, 0, 0, 0, 0, 7] + Array(0..<8)),
            Base64URL.encode([1, 0, 0, 0, 0, 0, 0, 0, 0] + Array(0..<8)),
            Base64URL.encode([1, 0, 0, 0, 0, 0, 0, 0, 7]),
            // A sequence past Int64.max.
            Base64URL.encode([1, 0xFF, 0, 0, 0, 0, 0, 0, 7] + Array(0..<8)),
        ] {
            #expect(ChangesCursor(token: token) == nil, "\(token)")
        }
    }

    @Test func aCursorIsAfterOnlyTheLineItWasMadeAfter() {
        let cursor = ChangesCursor(after: 7, hash: Self.hash)
        #expect(cursor.isAfter(lineWithHash: Self.hash))
        #expect(!cursor.isAfter(lineWithHash: Array(Self.hash.reversed())))
        #expect(!cursor.isAfter(lineWithHash: nil))
        #expect(ChangesCursor.start.isAfter(lineWithHash: nil))
    }
}
