import Cryptography
import Testing

/// RFC 4231's HMAC-SHA-256 vectors and RFC 5869's HKDF-SHA-256 vectors.
@Suite struct HMACTests {
    @Test func shortKeyMatchesRFC4231CaseOne() {
        let code = HMACSHA256(key: [UInt8](repeating: 0x0b, count: 20)).code(Array("Hi There".utf8))
        #expect(hex(code) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func partsAreHashedOneAfterAnotherAsRFC4231CaseTwo() {
        let code = HMACSHA256(key: Array("Jefe".utf8)).code(Array("what do ya ".utf8), Array("want for nothing?".utf8))
        #expect(hex(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func keyLongerThanABlockIsHashedFirstAsRFC4231CaseSix() {
        let key = [UInt8](repeating: 0xaa, count: 131)
        let code = HMACSHA256(key: key).code(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(hex(code) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func hkdfMatchesRFC5869CaseOne() {
        let derived = HKDFSHA256.derive(
            key: [UInt8](repeating: 0x0b, count: 22),
            salt: bytes("000102030405060708090a0b0c"),
            info: bytes("f0f1f2f3f4f5f6f7f8f9"),
            count: 42
        )
        #expect(hex(derived) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func hkdfWithoutSaltOrInfoMatchesRFC5869CaseThree() {
        let derived = HKDFSHA256.derive(key: [UInt8](repeating: 0x0b, count: 22), info: [], count: 42)
        #expect(hex(derived) == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }
}
