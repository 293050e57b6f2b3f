import HealthwheelCore
import Testing

@Suite struct Base64URLTests {
    @Test func roundTripsRandomBytesOfEveryLengthUpTo40() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.decode(text) == bytes, "length \(length)")
        }
    }

    @Test func neverEmitsPlusSlashOrPadding() {
        var generator = SystemRandomNumberGenerator()
        // 0xfb 0xff 0xbf is "+/+/" in standard base64, so the alphabet swap is always exercised.
        var inputs: [[UInt8]] = [[0xfb, 0xff, 0xbf], [0xfb, 0xff], [0xff]]
        for length in 0...40 {
            inputs.append((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        }
        for bytes in inputs {
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("+") && !text.contains("/") && !text.contains("="), "\(bytes) -> \(text)")
            #expect(text.utf8.count == (bytes.count * 4 + 2) / 3, "unpadded length for \(bytes.count) bytes")
        }
    }

    @Test func usesDashAndUnderscoreForTheLastTwoDigits() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
    }

    /// RFC 4648 §10 test vectors, without their padding.
    @Test func matchesTheRFC4648VectorsWithoutPadding() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(plain.utf8) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func decodeRejectsCharactersOutsideTheAlphabet() {
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("a$cd") == nil)
    }
}
