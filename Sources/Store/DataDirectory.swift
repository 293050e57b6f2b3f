import CSQLCipher
import Foundation
import StoreContract

#if canImport(Glibc)
import Glibc
#endif

/// The server's data folder: `healthwheel.db`, its key file, and the lock that marks a running server.
///
/// The key comes from `HEALTHWHEEL_DB_KEY` when set, else from `healthwheel.key` (64 hex characters, mode 0600),
/// which is created together with a brand-new database and never otherwise.
public struct DataDirectory: Sendable {
    /// The folder, standardised; created with mode 0700 when first needed.
    public let url: URL

    /// Where media files are kept, sealed (`SealedMediaFiles`).
    public var mediaFolder: URL { url.appendingPathComponent("media") }

    /// The environment variable that holds the key (64 hex characters); set but empty counts as unset.
    public static let keyVariable = "HEALTHWHEEL_DB_KEY"

    /// The data folder at `path` (relative paths resolve against the current directory); nothing is touched yet.
    public init(path: String) {
        self.url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    /// `healthwheel.db` in the folder: the encrypted database (with `-wal` and `-shm` beside it while open).
    public var databasePath: String { url.appendingPathComponent("healthwheel.db").path }
    /// `healthwheel.key` in the folder: the key when `HEALTHWHEEL_DB_KEY` is not set (mode 0600).
    public var keyPath: String { url.appendingPathComponent("healthwheel.key").path }
    /// Written before a rekey touches the database, renamed over the key file after it; see `rekey`.
    var pendingKeyPath: String { keyPath + ".new" }
    var lockPath: String { url.appendingPathComponent("healthwheel.lock").path }

    // MARK: - Keys

    /// The key to open the database with. Creates the folder and a new key file only when there is no database yet.
    public func resolveKey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DatabaseKey {
        try resolve(Self.keyVariable, file: keyPath, environment: environment) {
            if FileManager.default.fileExists(atPath: databasePath) {
                throw StoreError.missingKey(databasePath: databasePath, keyPath: keyPath)
            }
        }
    }

    /// The variable holding the key that seals health data in a PostgreSQL store (`ColumnSealer`).
    public static let dataKeyVariable = "HEALTHWHEEL_DATA_KEY"
    /// Where the data key is kept when the variable is not set: beside the database key, with the same rules.
    public var dataKeyPath: String { url.appendingPathComponent("healthwheel.data.key").path }

    /// The key that seals health data in a PostgreSQL store: `HEALTHWHEEL_DATA_KEY`, else the data key file,
    /// else a new key written to that file (mode 0600). Every node of a cluster needs the same one; a node started
    /// with another is refused by the database it opens (`Migrator.migrate(_:)`), before anything changes.
    public func resolveDataKey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DatabaseKey {
        try resolve(Self.dataKeyVariable, file: dataKeyPath, environment: environment) {}
    }

    /// The variable holding the key the audit trail is chained under (`AuditKey`).
    public static let auditKeyVariable = "HEALTHWHEEL_AUDIT_KEY"
    /// Where the audit key is kept when the variable is not set. It is not in the database, so a copy of the
    /// database and its key is not enough to rewrite the trail unseen; keep it elsewhere too, or set the variable
    /// from a secret store. Every node of a cluster needs the same one.
    public var auditKeyPath: String { url.appendingPathComponent("healthwheel.audit.key").path }
    /// The audit trail's checkpoints: an append-only file of its head, written while the server runs.
    public var auditHeadPath: String { url.appendingPathComponent("healthwheel.audit-head").path }

    /// The audit key: `HEALTHWHEEL_AUDIT_KEY`, else the audit key file, else a new key written to that file
    /// (mode 0600). A database whose trail was keyed under another refuses it (`StoreError.wrongAuditKey`).
    public func resolveAuditKey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AuditKey {
        AuditKey(try resolve(Self.auditKeyVariable, file: auditKeyPath, environment: environment) {})
    }

    /// A key from `variable` (set but empty counts as unset), else from `file`, else a new one written to `file`
    /// once `beforeCreating` has not objected.
    private func resolve(
        _ variable: String,
        file: String,
        environment: [String: String],
        beforeCreating: () throws -> Void
    ) throws -> DatabaseKey {
        if let value = environment[variable], !value.isEmpty {
            guard let key = DatabaseKey(hex: value) else { throw StoreError.invalidKey(source: variable) }
            return key
        }
        if FileManager.default.fileExists(atPath: file) { return try readKey(at: file) }
        try beforeCreating()
        try createFolder()
        let key = DatabaseKey.random()
        try writeKeyFile(key, to: file)
        return key
    }

    /// The key variable's value; set but empty counts as unset, everywhere.
    static func keyFromEnvironment(_ environment: [String: String]) -> String? {
        guard let value = environment[keyVariable], !value.isEmpty else { return nil }
        return value
    }

    /// The folder holds health data and keys: only its owner may list or enter it.
    private func createFolder() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func readKey(at path: String) throws -> DatabaseKey {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let key = DatabaseKey(hex: text) else { throw StoreError.invalidKey(source: path) }
        return key
    }

    /// Writes a key file with mode 0600 from the first byte (never world-readable, not even briefly), and fsyncs it.
    private func writeKeyFile(_ key: DatabaseKey, to path: String) throws {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let bytes = Array((key.hex + "\n").utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    // MARK: - Opening

    /// Opens the pooled database and applies pending migrations. A wrong key fails fast with
    /// `StoreError.wrongKey`, leaving every file as it was. The database holds the folder's shared lock while open,
    /// so `rekey` cannot run underneath it.
    public func openDatabase(
        migrator: Migrator,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        readers: Int = 4
    ) throws -> SQLiteDatabase {
        let key = try resolveKey(environment: environment)
        try createFolder()
        let lock = try lock(.shared, purpose: "opening the database")
        // The audit key (a new one written on the first start) only once the database key has proved itself: a
        // wrong key leaves the folder as it was.
        func open(with key: DatabaseKey) throws -> SQLiteDatabase {
            try SQLiteDatabase(path: databasePath, key: key, auditKey: try resolveAuditKey(environment: environment), readers: readers, holding: lock)
        }
        let database: SQLiteDatabase
        do {
            try verifyKey(key)
            database = try open(with: key)
        } catch StoreError.wrongKey(let path) {
            guard Self.keyFromEnvironment(environment) == nil, let recovered = try finishInterruptedRekey() else {
                throw StoreError.wrongKey(path: path)
            }
            database = try open(with: recovered)
        }
        // Safe under the shared lock (no rekey is running): a pending key that did not open the database is left
        // over from a rekey that died before re-encrypting.
        try? FileManager.default.removeItem(atPath: pendingKeyPath)
        try migrator.migrate(database)
        return database
    }

    /// A single connection, for maintenance commands that must not start the pool. It holds the folder's shared
    /// lock while open.
    public func openConnection(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SQLiteConnection {
        let lock = try lock(.shared, purpose: "opening the database")
        let connection = try openUnlockedConnection(key: try resolveKey(environment: environment))
        connection.folderLock = lock
        return connection
    }

    private func openUnlockedConnection(key: DatabaseKey) throws -> SQLiteConnection {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw StoreError.cannotOpen(path: databasePath, reason: "no database here yet (run `healthwheel migrate` or `serve` first)")
        }
        try verifyKey(key)
        return try SQLiteConnection(path: databasePath, key: key)
    }

    /// Proves `key` against a private copy of the database's first page before SQLite opens the real file.
    /// Opening the real file with a wrong key would already change it when a crash left a write-ahead log behind:
    /// SQLite 3.15 recovers and checkpoints the log when even a failed connection closes.
    private func verifyKey(_ key: DatabaseKey) throws {
        guard let file = FileHandle(forReadingAtPath: databasePath) else { return }
        let firstPage = try file.read(upToCount: Self.cipherPageSize) ?? Data()
        try file.close()
        guard firstPage.count == Self.cipherPageSize else { return }  // new or empty: nothing to prove yet

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("healthwheel-keycheck-\(UUID().uppercaseHyphenated)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let probe = scratch.appendingPathComponent("page1.db").path
        guard FileManager.default.createFile(atPath: probe, contents: firstPage, attributes: [.posixPermissions: 0o600]) else {
            throw StoreError.cannotOpen(path: probe, reason: "cannot write the key check file")
        }
        do {
            _ = try SQLiteConnection(path: probe, key: key)
        } catch StoreError.wrongKey {
            throw StoreError.wrongKey(path: databasePath)
        } catch {
            // Page 1 decrypted; the probe simply lacks the other pages.
        }
    }

    /// SQLCipher 3's default page size, which this project keeps.
    static let cipherPageSize = 1024

    // MARK: - Folder lock

    /// A lock on the data folder. Everything that opens the database holds it shared; `rekey` needs it exclusive,
    /// because connections that are open elsewhere hold the old key. The kernel drops it when the process exits,
    /// however it exits.
    public final class Lock: Sendable {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    /// Shared for anything that opens the database (servers, CLI commands); exclusive for a rekey.
    public enum LockMode: Sendable {
        case shared, exclusive
    }

    /// Takes the lock, or throws `StoreError.busy` saying why. A lock held by another process is retried for a
    /// moment: a child process this one starts holds a copy of its descriptors until the child's exec closes them
    /// (close-on-exec), so a lock just released can look taken for a millisecond or two.
    public func lock(_ mode: LockMode = .exclusive, purpose: String) throws -> Lock {
        try createFolder()
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.cannotOpen(path: lockPath, reason: String(cString: strerror(errno))) }
        var locked = false
        for attempt in 0..<20 {
            if attempt > 0 { usleep(10_000) }
            locked = flock(descriptor, (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0
            if locked { break }
        }
        guard locked else {
            close(descriptor)
            let reason =
                mode == .shared
                ? "a rekey is running on \(url.path); try again when it has finished"
                : "another healthwheel process is using \(url.path) (a running server?): \(purpose) needs it to itself"
            throw StoreError.busy(reason)
        }
        return Lock(descriptor: descriptor)
    }

    // MARK: - Backup

    /// SQLite's own checks of the file (`PRAGMA integrity_check`, then `foreign_key_check`): nothing when all is
    /// well, else what is wrong, one problem each. Read-only; safe while the server runs (it reads a snapshot).
    public func check(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String] {
        let connection = try openConnection(environment: environment)
        var problems: [String] = try connection.query("PRAGMA integrity_check").map { try $0["integrity_check"] as String }.filter { $0 != "ok" }
        problems += try connection.query("PRAGMA foreign_key_check").map { row in
            "row \(try row["rowid"] as Int64) of \(try row["table"] as String) refers to a missing \(try row["parent"] as String)"
        }
        return problems
    }

    /// Writes a consistent backup to the new folder `destination`, while the server may keep writing: the database
    /// (`healthwheel.db`, same key: SQLite's online backup, in one read transaction, checked) and the media files
    /// its rows refer to (`media/`, sealed as they are; hard links where the file system allows, since a stored file
    /// never changes). A media file deleted between the database copy and its own is dropped from the copy too,
    /// as it was deleted. The folder is a data folder without its key: `restore` (or `--data-dir` with the key)
    /// serves it. Written as `destination.partial`, renamed when complete.
    public func backup(to destination: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw StoreError.cannotOpen(path: destination, reason: "it already exists; choose a new name")
        }
        let source = try openConnection(environment: environment)
        let key = try resolveKey(environment: environment)
        let partial = DataDirectory(path: destination + ".partial")
        try? FileManager.default.removeItem(at: partial.url)
        do {
            try partial.createFolder()
            try copyDatabase(from: source, to: partial.databasePath, key: key)
            try copyMedia(into: partial, key: key)
            try FileManager.default.moveItem(atPath: partial.url.path, toPath: destination)
        } catch {
            try? FileManager.default.removeItem(at: partial.url)
            throw error
        }
    }

    /// Copies (links) the media files the copied database refers to; rows whose file is gone are deleted there.
    private func copyMedia(into copy: DataDirectory, key: DatabaseKey) throws {
        let connection = try SQLiteConnection(path: copy.databasePath, key: key)
        let ids: [UUID] = try connection.query("SELECT id FROM media").map { try $0["id"] }
        for id in ids {
            for variant in MediaVariant.allCases {
                let from = mediaFolder.appendingPathComponent(SealedMediaFiles.relativePath(of: id, variant))
                let to = copy.mediaFolder.appendingPathComponent(SealedMediaFiles.relativePath(of: id, variant))
                try FileManager.default.createDirectory(
                    at: to.deletingLastPathComponent(),
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
                if link(from.path, to.path) == 0 { continue }
                guard FileManager.default.fileExists(atPath: from.path) else {
                    guard variant == .original else { continue }  // a video has no previews
                    try connection.run("DELETE FROM media WHERE id = ?", id)
                    try connection.run("DELETE FROM media_removed WHERE id = ?", id)
                    break
                }
                try FileManager.default.copyItem(at: from, to: to)
            }
        }
    }

    /// Makes this (new, empty) folder a copy of the backup folder `source`, and proves the key (from the
    /// environment, or a key file already placed here) opens it. Nothing is left when it does not.
    public func restore(from source: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let backup = DataDirectory(path: source)
        guard FileManager.default.fileExists(atPath: backup.databasePath) else {
            throw StoreError.cannotOpen(path: source, reason: "no healthwheel.db in it: name a folder `healthwheel backup` wrote")
        }
        guard !FileManager.default.fileExists(atPath: databasePath) else {
            throw StoreError.cannotOpen(path: url.path, reason: "it already holds a database; restore into a new folder")
        }
        guard Self.keyFromEnvironment(environment) != nil || FileManager.default.fileExists(atPath: keyPath) else {
            throw StoreError.missingKey(databasePath: databasePath, keyPath: keyPath)
        }
        try createFolder()
        let lock = try lock(.exclusive, purpose: "restore")
        defer { withExtendedLifetime(lock) {} }
        do {
            try FileManager.default.copyItem(atPath: backup.databasePath, toPath: databasePath)
            if FileManager.default.fileExists(atPath: backup.mediaFolder.path) {
                try FileManager.default.copyItem(at: backup.mediaFolder, to: mediaFolder)
            }
            let connection = try openUnlockedConnection(key: try resolveKey(environment: environment))
            let check: String = try connection.scalar("PRAGMA quick_check")
            guard check == "ok" else { throw StoreError.cannotOpen(path: databasePath, reason: "the restored copy failed its check: \(check)") }
        } catch {
            try? FileManager.default.removeItem(atPath: databasePath)
            try? FileManager.default.removeItem(at: mediaFolder)
            throw error
        }
    }

    private func copyDatabase(from source: SQLiteConnection, to path: String, key: DatabaseKey) throws {
        let target = try SQLiteConnection(path: path, key: key)
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
            throw SQLiteError(code: sqlite3_errcode(target.handle), connection: target.handle)
        }
        let stepCode = sqlite3_backup_step(backup, -1)
        let finishCode = sqlite3_backup_finish(backup)
        guard stepCode == SQLITE_DONE, finishCode == SQLITE_OK else {
            throw SQLiteError(code: stepCode == SQLITE_DONE ? finishCode : stepCode, connection: target.handle)
        }
        let check: String = try target.scalar("PRAGMA quick_check")
        guard check == "ok" else { throw StoreError.cannotOpen(path: path, reason: "the copy failed its check: \(check)") }
    }

    // MARK: - Rekey

    /// Re-encrypts the database in place under a new random key and returns it. Needs the data folder to itself
    /// (the server must be stopped), because a running server's connections hold the old key.
    ///
    /// Crash safety: the new key is first written to `healthwheel.key.new`; the database is re-encrypted in one
    /// transaction; then the new file is renamed over `healthwheel.key`. If the process dies in between, the next
    /// open finds the database under the pending key and finishes the rename (`finishInterruptedRekey`).
    /// With `HEALTHWHEEL_DB_KEY` set there is no key file to update: the caller must show the new key.
    public func rekey(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DatabaseKey {
        let lock = try lock(.exclusive, purpose: "rekey")
        defer { withExtendedLifetime(lock) {} }
        let connection = try openUnlockedConnection(key: try resolveKey(environment: environment))
        let usesKeyFile = Self.keyFromEnvironment(environment) == nil
        let newKey = DatabaseKey.random()
        if usesKeyFile { try writeKeyFile(newKey, to: pendingKeyPath) }
        // SQLCipher re-encrypts page by page through the pager; doing it outside WAL keeps every page in the
        // main file, so no WAL frame is left encrypted under the old key.
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        let newSpec = Array(newKey.rawKeySpec.utf8)
        let code = sqlite3_rekey(connection.handle, newSpec, Int32(newSpec.count))
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection.handle) }
        try connection.execute("PRAGMA journal_mode = WAL")
        _ = try connection.scalar("SELECT count(*) FROM sqlite_master") as Int64
        if usesKeyFile {
            do {
                try replaceKeyFile()
            } catch {
                throw StoreError.cannotOpen(
                    path: keyPath,
                    reason: "the database is now encrypted with the key in \(pendingKeyPath), which could not be renamed "
                        + "(\(error)); rename it to \(keyPath) by hand"
                )
            }
        }
        return newKey
    }

    private func replaceKeyFile() throws {
        guard rename(pendingKeyPath, keyPath) == 0 else {
            throw StoreError.cannotOpen(path: keyPath, reason: String(cString: strerror(errno)))
        }
        let folder = open(url.path, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// After a rekey died between re-encrypting and renaming: if the pending key opens the database, adopt it.
    private func finishInterruptedRekey() throws -> DatabaseKey? {
        guard FileManager.default.fileExists(atPath: pendingKeyPath) else { return nil }
        let pending = try readKey(at: pendingKeyPath)
        do {
            _ = try SQLiteConnection(path: databasePath, key: pending)
        } catch StoreError.wrongKey {
            return nil
        }
        try replaceKeyFile()
        return pending
    }
}
