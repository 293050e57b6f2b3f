import COpenSSLCrypto

/// SHA-256 through OpenSSL's libcrypto (already linked by SQLCipher), via the non-deprecated EVP interface.
public enum SHA256 {
    /// The digest implementation, fetched once: `EVP_sha256()` makes OpenSSL 3 look its provider up on every
    /// call, which cost more than hashing a bearer token. A fetched `EVP_MD` is immutable and shared by threads.
    nonisolated(unsafe) private static let algorithm: OpaquePointer = {
        guard let fetched = EVP_MD_fetch(nil, "SHA256", nil) else { preconditionFailure("OpenSSL has no SHA-256") }
        return fetched
    }()

    /// The 32-byte SHA-256 digest of `bytes`: bearer tokens are stored and looked up by it, idempotency fingerprints use it.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = Array(bytes).withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, algorithm, nil)
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return output
    }
}
