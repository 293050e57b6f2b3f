import Cryptography
import Testing

/// FIPS 180-2 / NIST CSRC example vectors.
@Suite struct SHA256Tests {
    @Test func digestOfABCMatchesTheNISTVector() {
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func digestOfTheEmptyMessageMatchesTheNISTVector() {
        #expect(hex(SHA256.digest([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func digestOfTheTwoBlockMessageMatchesTheNISTVector() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(SHA256.digest(message)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func digestAcceptsAnyCollectionOfBytes() {
        #expect(SHA256.digest("abc".utf8) == SHA256.digest(Array("abc".utf8)))
        #expect(SHA256.digest(Array("xabcx".utf8).dropFirst().dropLast()) == SHA256.digest(Array("abc".utf8)))
    }
}

@Suite struct SHA256HasherTests {
    @Test func partsHashAsTheWhole() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        let hasher = SHA256.Hasher()
        hasher.update(Array(message[..<7]))
        message[7...].withUnsafeBytes { hasher.update($0) }
        #expect(hex(hasher.finalize()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
