import Foundation
import HealthwheelCore

/// Results' photos and videos as rows: what is known of each file, and the key its bytes are sealed with
/// (`MediaStorage` keeps the bytes). Always inside one company: another company's id is simply not found.
public protocol MediaRepository: Sendable {
    /// Adds a stored file's row, unless the company's media would then pass `quota` bytes (throws
    /// `MediaQuotaReached`, storing nothing) or the result is gone. The total, the insert, `audit` and the end of
    /// the id's reservation (if any) are one transaction.
    func insert(_ file: MediaFile, key: MediaKey, quota: Int, audit: AuditEvent) async throws
    func find(_ id: UUID, in company: UUID) async throws -> (file: MediaFile, key: MediaKey)?
    /// A result's media in upload order.
    func list(result: UUID, in company: UUID) async throws -> [MediaFile]
    /// The media of many results at once, by result, each in upload order (for reports).
    func list(results: [UUID], in company: UUID) async throws -> [UUID: [MediaFile]]
    /// Changes the caption, with the audit line `audit` makes of the file; nil when the file is absent.
    func setCaption(_ caption: String?, of id: UUID, in company: UUID, at now: Date, audit: (MediaFile) -> AuditEvent) async throws -> MediaFile?
    /// Deletes the row (its file is then unreadable and listed by `removed()`), with the audit line `audit` makes of
    /// it; nil when absent.
    func delete(_ id: UUID, in company: UUID, audit: (MediaFile) -> AuditEvent) async throws -> MediaFile?
    /// Bytes the company's media take.
    func usedBytes(by company: UUID) async throws -> Int
    /// Files whose rows are gone (deleted alone, or with their result or client), to remove from storage.
    func removed() async throws -> [UUID]
    /// Forgets removed files once storage no longer holds them.
    func forgetRemoved(_ ids: [UUID]) async throws
    /// Every file a row or a reservation refers to: what storage keeps when it sweeps after a crash.
    func allIDs() async throws -> Set<UUID>
    /// Holds `id`, chosen by an app, for an upload about to write its files: `RecordIdTaken` when a media row (of
    /// any company), a removed file not yet removed, or another upload has it. A reservation made before
    /// `abandonedBefore` was left by a node that stopped mid-upload, and is taken over.
    func reserve(_ id: UUID, in company: UUID, at now: Date, abandonedBefore: Date) async throws
    /// Ends the reservation of `id` (its upload stopped; `insert` ends it when the row is stored).
    func release(_ id: UUID) async throws
    /// Ends reservations made before `date` (at start-up: those of uploads that ended with their process).
    func releaseReservations(before date: Date) async throws
}

/// The company's media would pass its quota.
public struct MediaQuotaReached: Error, Sendable, Equatable {
    public var quota: Int
    public var used: Int

    public init(quota: Int, used: Int) {
        self.quota = quota
        self.used = used
    }
}

/// A media file's own AES-256-GCM key: 32 random bytes, kept only in its row.
public struct MediaKey: Sendable, Equatable {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A fresh random key.
    public static func random() -> MediaKey {
        MediaKey(bytes: SecureRandom.bytes(32))!
    }
}
