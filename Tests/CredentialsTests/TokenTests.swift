import Cryptography
import Foundation
import HealthwheelCore
import Testing

@testable import Credentials

@Suite struct AccessTokenTests {
    private static let base64URLAlphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test func generatesA43CharacterBase64URLValue() throws {
        let token = AccessToken.generate()
        #expect(token.value.count == 43)
        #expect(token.value.allSatisfy { Self.base64URLAlphabet.contains($0) })
        // 43 unpadded characters carry 32 bytes.
        let standard = token.value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "="
        let bytes = try #require(Data(base64Encoded: standard))
        #expect(bytes.count == 32)
    }

    @Test func generatesADifferentValueEachTime() {
        let values = (0..<50).map { _ in AccessToken.generate().value }
        #expect(Set(values).count == values.count)
    }

    @Test func digestIsTheSHA256OfTheValue() {
        let token = AccessToken.generate()
        #expect(token.digest == SHA256.digest(Array(token.value.utf8)))
        #expect(token.digest.count == 32)
        #expect(AccessToken(value: token.value).digest == token.digest)
        #expect(AccessToken.generate().digest != token.digest)
    }
}

@Suite struct GeneratedPasswordTests {
    @Test func makesTwentyCharactersFromItsAlphabet() {
        let alphabet = Set(GeneratedPassword.alphabet)
        for _ in 0..<20 {
            let password = GeneratedPassword.make()
            #expect(password.count == 20)
            #expect(password.allSatisfy { alphabet.contains($0) }, "\(password)")
        }
    }

    @Test func alphabetLeavesOutLookAlikes() {
        let alphabet = Set(GeneratedPassword.alphabet)
        #expect(alphabet.isDisjoint(with: "0O1lI"))
    }

    @Test func makesTheRequestedLength() {
        #expect(GeneratedPassword.make(length: 32).count == 32)
    }

    @Test func makesADifferentPasswordEachTime() {
        let passwords = (0..<20).map { _ in GeneratedPassword.make() }
        #expect(Set(passwords).count == passwords.count)
    }
}

@Suite struct SecureRandomTests {
    @Test func hexOf16BytesIs32LowerCaseHexCharacters() {
        let value = SecureRandom.hex(16)
        #expect(value.count == 32)
        #expect(value.allSatisfy { lowerCaseHexDigits.contains($0) }, "\(value)")
    }

    @Test func hexDiffersEachTime() {
        #expect(SecureRandom.hex(16) != SecureRandom.hex(16))
    }

    /// Bytes are taken eight at a time: the last word's bytes, cut short, must be as random as the others.
    @Test func everyPositionVaries() {
        let samples = (0..<64).map { _ in SecureRandom.bytes(13) }
        for position in 0..<13 {
            #expect(Set(samples.map { $0[position] }).count > 1, "byte \(position) never changed")
        }
    }

    @Test func generateReturnsTheRequestedCount() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(33).count == 33)
    }

    @Test func hexStringEncodesEachByteAsTwoLowerCaseDigits() {
        let bytes: [UInt8] = [0x00, 0x0f, 0x10, 0xab, 0xff]
        #expect(bytes.hexString == hex(bytes))
    }
}
