import Foundation
import HealthwheelCore
import NIOPosix
import StoreContract

/// Removes the files of media rows that are gone, whoever deleted them (the media alone, its result, its client):
/// the rows' trigger lists them, this takes them off the disk and forgets them. Called after every such delete
/// and at start-up, where it also sweeps what a crash left (unfinished uploads, files with no row).
public struct MediaFileRemover: Sendable {
    let media: any MediaRepository
    let storage: any MediaStorage
    let clock: any WallClock

    public init(store: Repositories, storage: any MediaStorage, clock: any WallClock) {
        media = store.media
        self.storage = storage
        self.clock = clock
    }

    /// Removes the files of every removed row. A file is unreadable the moment its row (and key) is gone; this
    /// frees its space. Returns the ids whose files went.
    @discardableResult
    public func removeFiles() async throws -> [UUID] {
        let ids = try await media.removed()
        guard !ids.isEmpty else { return [] }
        let storage = self.storage
        try await NIOThreadPool.singleton.runIfActive { try storage.remove(ids) }
        try await media.forgetRemoved(ids)
        return ids
    }

    /// At start-up, before anything uploads: removes files nothing refers to. Returns how many.
    public func sweep() async throws -> Int {
        try await removeFiles()
        // The ids apps chose for uploads that ended with their process: on one node every upload has; where other
        // nodes upload too, theirs may be under way, and only one held past the hour was left by a stopped node.
        try await media.releaseReservations(
            before: storage.isShared ? clock.now.addingTimeInterval(-ResultMedia.uploadAbandonedAfter) : .distantFuture
        )
        let keeping = try await media.allIDs()
        let storage = self.storage
        return try await NIOThreadPool.singleton.runIfActive { try storage.sweep(keeping: keeping) }
    }
}
