import COpenSSLCrypto
import Foundation
import Store
import StoreContract

/// The pages of an SQLCipher file (and of its write-ahead log) decrypted one by one with the raw key, outside
/// SQLite: what someone holding the key finds in the file, freed pages and deleted bytes included, not only what
/// a query returns. SQLCipher 3's layout: 1,024-byte pages, each AES-256-CBC encrypted but for its last 48 bytes
/// (a 16-byte IV, then the HMAC); page 1 begins with the file's 16-byte salt in the clear.
public struct RawDatabasePages: CustomStringConvertible {
    public static let pageSize = 1024
    static let reserved = 48

    /// Every page's plain bytes: the database file's, then each frame's of the log (if any).
    public let pages: [[UInt8]]

    /// Reads `database` (and `database-wal`) with `key`. Throws when page 1 does not decrypt to SQLite's header
    /// (page size 1,024, 48 reserved bytes), so a wrong layout cannot pass for "nothing found".
    public init(database path: String, key: DatabaseKey) throws {
        let keyBytes = try Self.bytes(hex: key.hex)
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var pages: [[UInt8]] = []
        for start in stride(from: 0, to: file.count - Self.pageSize + 1, by: Self.pageSize) {
            pages.append(try Self.decrypt(Array(file[start..<start + Self.pageSize]), first: start == 0, key: keyBytes))
        }
        guard let first = pages.first, first[16] == 4, first[17] == 0, first[20] == UInt8(Self.reserved) else {
            throw Unreadable(description: "page 1 of \(path) does not decrypt to an SQLite header")
        }
        // The log: a 32-byte header, then frames of a 24-byte header and one page each.
        if let log = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) {
            let bytes = [UInt8](log)
            var offset = 32
            while offset + 24 + Self.pageSize <= bytes.count {
                let number = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                let page = Array(bytes[offset + 24..<offset + 24 + Self.pageSize])
                pages.append(try Self.decrypt(page, first: number == 1, key: keyBytes))
                offset += 24 + Self.pageSize
            }
        }
        self.pages = pages
    }

    /// How many pages (a failed expectation shows this, not every byte).
    public var description: String { "\(pages.count) pages" }

    /// Whether any page holds `text`'s UTF-8 bytes.
    public func contain(_ text: String) -> Bool {
        let needle = Data(text.utf8)
        return pages.contains { Data($0).range(of: needle) != nil }
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public var description: String
    }

    private static func decrypt(_ page: [UInt8], first: Bool, key: [UInt8]) throws -> [UInt8] {
        let start = first ? 16 : 0
        let end = pageSize - reserved
        let iv = Array(page[end..<end + 16])
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        var plain = [UInt8](repeating: 0, count: end - start + 16)
        var written: Int32 = 0
        guard EVP_DecryptInit_ex(context, EVP_aes_256_cbc(), nil, key, iv) == 1, EVP_CIPHER_CTX_set_padding(context, 0) == 1,
            EVP_DecryptUpdate(context, &plain, &written, Array(page[start..<end]), Int32(end - start)) == 1
        else { throw Unreadable(description: "AES-256-CBC failed") }
        return Array(repeating: 0, count: start) + plain.prefix(Int(written))
    }

    private static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
