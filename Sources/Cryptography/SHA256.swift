import COpenSSLCrypto

/// SHA-256 through OpenSSL's libcrypto (already linked by SQLCipher), via the non-deprecated EVP interface.
public enum SHA256 {
    /// The digest implementation, fetched once: `EVP_sha256()` makes OpenSSL 3 look its provider up on every
    /// call, which cost more than hashing a bearer token. A fetched `EVP_MD` is immutable and shared by threads.
    nonisolated(unsafe) static let algorithm: OpaquePointer = {
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

    /// SHA-256 of bytes that arrive in parts (an upload as it streams in), without holding them all. Not
    /// copyable, so its one OpenSSL context has one owner at a time: that is what makes it sendable.
    public struct Hasher: ~Copyable, @unchecked Sendable {
        private let context: OpaquePointer

        public init() {
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex2(context, SHA256.algorithm, nil) == 1 else {
                preconditionFailure("EVP_DigestInit_ex2(SHA-256) failed")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Adds `bytes` to what is hashed.
        public func update(_ bytes: UnsafeRawBufferPointer) {
            precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "EVP_DigestUpdate failed")
        }

        /// Adds `bytes` to what is hashed.
        public func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        /// The digest of everything added; the hasher is spent.
        public func finalize() -> [UInt8] {
            var output = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &output, &length) == 1 && length == 32, "EVP_DigestFinal_ex failed")
            return output
        }
    }
}
