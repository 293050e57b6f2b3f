import COpenSSLCrypto

/// SHA-256 through OpenSSL's libcrypto (already linked by SQLCipher), via the non-deprecated EVP interface.
public enum SHA256 {
    /// The 32-byte SHA-256 digest of `bytes`: bearer tokens are stored and looked up by it, idempotency fingerprints use it.
    public static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = Array(bytes).withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return Array(output.prefix(Int(length)))
    }
}
