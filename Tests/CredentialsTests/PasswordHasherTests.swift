import Credentials
import Testing

@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher()

    @Test func verifiesTheRightPassword() throws {
        let encoded = try hasher.hash("correct horse battery staple")
        #expect(hasher.verify("correct horse battery staple", against: encoded))
    }

    @Test func rejectsAWrongPassword() throws {
        let encoded = try hasher.hash("correct horse battery staple")
        #expect(!hasher.verify("correct horse battery stapler", against: encoded))
        #expect(!hasher.verify("", against: encoded))
    }

    @Test func producesAnArgon2idPHCStringWithTheOWASPParameters() throws {
        let encoded = try hasher.hash("a password for the format test")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        // $argon2id$v=19$m=…$salt$hash: six fields, the last two non-empty.
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        #expect(fields.count == 6)
        #expect(fields.suffix(2).allSatisfy { !$0.isEmpty })
    }

    @Test func twoHashesOfTheSamePasswordDiffer() throws {
        let first = try hasher.hash("same password twice")
        let second = try hasher.hash("same password twice")
        #expect(first != second)
        #expect(hasher.verify("same password twice", against: first))
        #expect(hasher.verify("same password twice", against: second))
    }

    @Test func aMalformedHashDoesNotVerify() throws {
        let encoded = try hasher.hash("some password here")
        for malformed in ["", "not-a-hash", "$argon2id$v=19$m=19456,t=2,p=1$", String(encoded.dropLast(5)), encoded + "$extra"] {
            #expect(!hasher.verify("some password here", against: malformed), "\(malformed)")
        }
    }

    @Test func aHashMadeWithOtherParametersStillVerifies() throws {
        let cheap = PasswordHasher(memoryKiB: 1024, iterations: 1, parallelism: 1)
        let encoded = try cheap.hash("parameters travel with the hash")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=1024,t=1,p=1$"))
        #expect(hasher.verify("parameters travel with the hash", against: encoded))
        #expect(!hasher.verify("parameters travel with the hash!", against: encoded))
    }

    @Test func hashesNonASCIIPasswordsByTheirUTF8Bytes() throws {
        let encoded = try hasher.hash("pässwörd-ñ-密码")
        #expect(hasher.verify("pässwörd-ñ-密码", against: encoded))
        #expect(!hasher.verify("passwort-n-密码", against: encoded))
    }
}
