import COpenSSLCrypto

/// AES-256-GCM through libcrypto: what health data is sealed with where the database or the file system does not
/// encrypt it (PostgreSQL's columns, media files). Nonces are 12 bytes and tags 16, as swift-crypto's
/// `AES.GCM` wrote them, so data sealed before this wrapper opens the same.
public enum AES256GCM {
    /// The cipher, fetched once (as `SHA256.algorithm`); immutable and shared by threads.
    nonisolated(unsafe) private static let cipher: OpaquePointer = {
        guard let fetched = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) else { preconditionFailure("OpenSSL has no AES-256-GCM") }
        return fetched
    }()

    public static let nonceSize = 12
    public static let tagSize = 16

    /// A fresh random nonce: for a key that seals many values, where no counter is kept. From libcrypto's DRBG
    /// (seeded by the kernel), not a system call per byte: PostgreSQL's sealed columns take one per value.
    public static func randomNonce() -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: nonceSize)
        guard RAND_bytes(&nonce, Int32(nonceSize)) == 1 else { preconditionFailure("libcrypto's random generator failed") }
        return nonce
    }

    /// `plain` sealed under the 32-byte `key` and 12-byte `nonce`, `authenticated` bound to it: the ciphertext
    /// (as long as `plain`) and the tag.
    public static func seal(
        _ plain: some Collection<UInt8>,
        key: [UInt8],
        nonce: [UInt8],
        authenticating authenticated: [UInt8]
    ) -> (ciphertext: [UInt8], tag: [UInt8]) {
        let plain = Array(plain)
        var ciphertext = [UInt8](repeating: 0, count: plain.count)
        var tag = [UInt8](repeating: 0, count: tagSize)
        withContext(key: key, nonce: nonce, encrypting: true) { context in
            var written: Int32 = 0
            check(EVP_EncryptUpdate(context, nil, &written, authenticated, Int32(authenticated.count)), "EVP_EncryptUpdate(aad)")
            if !plain.isEmpty {
                check(EVP_EncryptUpdate(context, &ciphertext, &written, plain, Int32(plain.count)), "EVP_EncryptUpdate")
            }
            // GCM writes nothing at the end (no padding); a block of scratch spares an empty message's nil pointer.
            var final: Int32 = 0
            var rest = [UInt8](repeating: 0, count: 16)
            check(EVP_EncryptFinal_ex(context, &rest, &final), "EVP_EncryptFinal_ex")
            check(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagSize), &tag), "EVP_CTRL_AEAD_GET_TAG")
        }
        return (ciphertext, tag)
    }

    /// The plain bytes of `ciphertext` under `key` and `nonce`; throws `AuthenticationFailed` when the tag does
    /// not match (another key, another nonce or associated data, or bytes altered).
    public static func open(
        _ ciphertext: some Collection<UInt8>,
        tag: some Collection<UInt8>,
        key: [UInt8],
        nonce: [UInt8],
        authenticating authenticated: [UInt8]
    ) throws(AuthenticationFailed) -> [UInt8] {
        let ciphertext = Array(ciphertext)
        var tag = Array(tag)
        guard tag.count == tagSize, nonce.count == nonceSize, key.count == 32 else { throw AuthenticationFailed() }
        var plain = [UInt8](repeating: 0, count: ciphertext.count)
        let opened = withContext(key: key, nonce: nonce, encrypting: false) { context -> Bool in
            var written: Int32 = 0
            check(EVP_DecryptUpdate(context, nil, &written, authenticated, Int32(authenticated.count)), "EVP_DecryptUpdate(aad)")
            if !ciphertext.isEmpty {
                check(EVP_DecryptUpdate(context, &plain, &written, ciphertext, Int32(ciphertext.count)), "EVP_DecryptUpdate")
            }
            check(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagSize), &tag), "EVP_CTRL_AEAD_SET_TAG")
            // Only the tag check can fail here; GCM writes nothing at the end.
            var final: Int32 = 0
            var rest = [UInt8](repeating: 0, count: 16)
            return EVP_DecryptFinal_ex(context, &rest, &final) == 1
        }
        guard opened else { throw AuthenticationFailed() }
        return plain
    }

    /// Sealed bytes that do not open under the key, nonce and associated data given.
    public struct AuthenticationFailed: Error, Sendable, CustomStringConvertible {
        public var description: String { "AES-256-GCM authentication failed" }
    }

    private static func withContext<Result>(
        key: [UInt8],
        nonce: [UInt8],
        encrypting: Bool,
        _ body: (OpaquePointer) -> Result
    ) -> Result {
        precondition(key.count == 32 && nonce.count == nonceSize, "AES-256-GCM takes a 32-byte key and a 12-byte nonce")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let initialised =
            encrypting
            ? EVP_EncryptInit_ex2(context, cipher, key, nonce, nil)
            : EVP_DecryptInit_ex2(context, cipher, key, nonce, nil)
        check(initialised, encrypting ? "EVP_EncryptInit_ex2" : "EVP_DecryptInit_ex2")
        return body(context)
    }

    private static func check(_ result: Int32, _ call: String) {
        precondition(result == 1, "\(call) failed")
    }
}
