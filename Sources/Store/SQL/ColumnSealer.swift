import Cryptography
import Foundation
import StoreContract

/// Seals health data column by column where the database does not encrypt its files (PostgreSQL): a dump, a
/// backup or a replica then holds screening answers, observations, notes, result values and media only as
/// AES-256-GCM ciphertext. The key (`HEALTHWHEEL_DATA_KEY`) never reaches the database.
///
/// A sealed value is `1`, a 12-byte random nonce, the ciphertext and GCM's 16-byte tag; the column's name is the
/// associated data, so a value moved to another column does not open.
public struct ColumnSealer: Sendable {
    private let key: [UInt8]
    static let version: UInt8 = 1

    public init(key: DatabaseKey) {
        self.key = key.bytes
    }

    func seal(_ plain: [UInt8], context: String) throws -> [UInt8] {
        let nonce = AES256GCM.randomNonce()
        let (ciphertext, tag) = AES256GCM.seal(plain, key: key, nonce: nonce, authenticating: Array(context.utf8))
        return [Self.version] + nonce + ciphertext + tag
    }

    func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        let overhead = 1 + AES256GCM.nonceSize + AES256GCM.tagSize
        guard sealed.first == Self.version, sealed.count >= overhead else { throw ColumnSealingFailed(context: context) }
        let tagStart = sealed.count - AES256GCM.tagSize
        do {
            return try AES256GCM.open(
                sealed[(1 + AES256GCM.nonceSize)..<tagStart],
                tag: sealed[tagStart...],
                key: key,
                nonce: Array(sealed[1...AES256GCM.nonceSize]),
                authenticating: Array(context.utf8)
            )
        } catch {
            throw ColumnSealingFailed(context: context)
        }
    }
}

extension ColumnSealer? {
    /// The text to store in a column of health data: as it is without a sealer (an encrypted database), else
    /// sealed; `SQLConnection.sealed(_:_:)` for work prepared before its transaction.
    func sealed(_ text: String?, _ context: String) throws -> any SQLConvertible {
        guard let self, let text else { return text }
        return try self.seal(Array(text.utf8), context: context)
    }
}

/// A sealed value that does not open under this key (another key, or bytes altered).
public struct ColumnSealingFailed: Error, Sendable, CustomStringConvertible {
    public var context: String
    public var description: String { "a sealed \(context) does not open under HEALTHWHEEL_DATA_KEY (another key, or altered)" }
}
