import Cryptography
import Testing

/// The GCM specification's AES-256 test cases (McGrew and Viega, cases 13, 14 and 16) and what must not open.
@Suite struct AESGCMTests {
    let zeroKey = [UInt8](repeating: 0, count: 32)
    let zeroNonce = [UInt8](repeating: 0, count: 12)

    @Test func emptyMessageMatchesCaseThirteen() throws {
        let sealed = AES256GCM.seal([UInt8](), key: zeroKey, nonce: zeroNonce, authenticating: [])
        #expect(sealed.ciphertext.isEmpty)
        #expect(hex(sealed.tag) == "530f8afbc74536b9a963b4f1c4cb738b")
        #expect(try AES256GCM.open([UInt8](), tag: sealed.tag, key: zeroKey, nonce: zeroNonce, authenticating: []) == [])
    }

    @Test func oneZeroBlockMatchesCaseFourteen() {
        let sealed = AES256GCM.seal([UInt8](repeating: 0, count: 16), key: zeroKey, nonce: zeroNonce, authenticating: [])
        #expect(hex(sealed.ciphertext) == "cea7403d4d606b6e074ec5d3baf39d18")
        #expect(hex(sealed.tag) == "d0d1c8a799996bf0265b98b5d48ab919")
    }

    @Test func messageWithAssociatedDataMatchesCaseSixteenAndOpens() throws {
        let key = bytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let nonce = bytes("cafebabefacedbaddecaf888")
        let plain = bytes(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
        )
        let associated = bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = AES256GCM.seal(plain, key: key, nonce: nonce, authenticating: associated)
        #expect(
            hex(sealed.ciphertext)
                == "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
        )
        #expect(hex(sealed.tag) == "76fc6ece0f4e1768cddf8853bb2d551b")
        #expect(try AES256GCM.open(sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, authenticating: associated) == plain)
    }

    @Test func nothingAlteredOpens() {
        let key = [UInt8](repeating: 7, count: 32)
        let nonce = AES256GCM.randomNonce()
        let plain = Array("resting heart rate 52".utf8)
        let sealed = AES256GCM.seal(plain, key: key, nonce: nonce, authenticating: Array("observations".utf8))
        var flipped = sealed.ciphertext
        flipped[3] ^= 1
        var otherKey = key
        otherKey[0] ^= 1
        let attempts: [(ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], associated: String)] = [
            (flipped, sealed.tag, key, nonce, "observations"),
            (sealed.ciphertext, Array(sealed.tag.reversed()), key, nonce, "observations"),
            (sealed.ciphertext, sealed.tag, otherKey, nonce, "observations"),
            (sealed.ciphertext, sealed.tag, key, AES256GCM.randomNonce(), "observations"),
            (sealed.ciphertext, sealed.tag, key, nonce, "notes"),
            (sealed.ciphertext, Array(sealed.tag.prefix(12)), key, nonce, "observations"),
        ]
        for attempt in attempts {
            #expect(throws: AES256GCM.AuthenticationFailed.self) {
                try AES256GCM.open(
                    attempt.ciphertext,
                    tag: attempt.tag,
                    key: attempt.key,
                    nonce: attempt.nonce,
                    authenticating: Array(attempt.associated.utf8)
                )
            }
        }
    }

    @Test func randomNoncesDiffer() {
        #expect(AES256GCM.randomNonce() != AES256GCM.randomNonce())
        #expect(AES256GCM.randomNonce().count == 12)
    }
}
