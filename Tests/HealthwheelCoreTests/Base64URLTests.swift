import Foundation
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

    /// The hand-written coder against Foundation's standard base64 with the URL alphabet swapped in.
    @Test func agreesWithFoundationsBase64() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            let expected = String(standard.filter { $0 != "=" }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
            #expect(Base64URL.encode(bytes) == expected, "\(bytes)")
            #expect(Base64URL.decode(expected) == bytes, "\(expected)")
        }
    }

    @Test func decodeIgnoresPaddingAndTheLastDigitsUnusedBitsAsFoundationDoes() {
        #expect(Base64URL.decode("Zh") == [0x66])
        #expect(Base64URL.decode("Zm9") == [0x66, 0x6F])
        #expect(Base64URL.decode("Zg==") == [0x66])
    }

    @Test func decodeRejectsCharactersOutsideTheAlphabet() {
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("a$cd") == nil)
        #expect(Base64URL.decode("Z===") == nil)
        #expect(Base64URL.decode("Zm+v") == nil)
        #expect(Base64URL.decode("Zm9vY") == nil)
        #expect(Base64URL.decode("Zm9v\u{e9}") == nil)
    }
}
