import Foundation
import HealthwheelCore
import NIOPosix
import StoreContract

/// Erasure of a client at their request (GDPR Art. 17), for admins: unlike a delete, nothing of them is left, in
/// the database file, its log, the media folder or memory. The audit trail keeps one line, `client.erased`, with
/// their id, who erased them and when; its earlier lines about them stay in the chain but no longer say whom they
/// were about.
public struct ClientErasure: Sendable {
    let clients: any ClientRepository
    let deliveries: any DeliveryRepository
    let roster: ClientRoster
    let wheels: ClientWheels
    let results: AssessmentResults
    let thumbnails: MediaThumbnails
    let mediaFiles: MediaFileRemover
    let mail: MailSettings
    let clock: any WallClock

    /// One per process (`UseCases` builds it), over the caches it empties.
    init(
        store: Repositories,
        roster: ClientRoster,
        wheels: ClientWheels,
        results: AssessmentResults,
        thumbnails: MediaThumbnails,
        mediaFiles: MediaFileRemover,
        mail: MailSettings,
        clock: any WallClock
    ) {
        self.clients = store.clients
        self.deliveries = store.deliveries
        self.roster = roster
        self.wheels = wheels
        self.results = results
        self.thumbnails = thumbnails
        self.mediaFiles = mediaFiles
        self.mail = mail
        self.clock = clock
    }

    /// Erases the client: their row and everything recorded for them (screenings, results with every revision,
    /// photo, media rows, outbox messages and deliveries, search terms, kept answers of retried requests) in one
    /// transaction, with deleted bytes overwritten (`secure_delete`) and the write-ahead log truncated; then their
    /// media files, the report emails the folder route wrote for them, and the wheels, pictures, result pages, list
    /// and avatars memory held of them. `notFound` for another company's client, `forbidden` for a trainer who is
    /// not an admin.
    public func erase(_ id: UUID, by trainer: Trainer) async throws {
        _ = try await roster.record(id, in: trainer.companyId)
        guard trainer.role == .admin else {
            throw ServiceError.forbidden(detail: "only an admin can erase a client (a plain DELETE removes them and keeps the audit trail's lines)")
        }
        let deliveries = try await self.deliveries.all(client: id, in: trainer.companyId).map(\.id)
        guard try await clients.erase(id, in: trainer.companyId, audit: .client(.erased, id, by: trainer, at: clock.now)) else {
            throw ServiceError.notFound("client")
        }
        thumbnails.forget(try await mediaFiles.removeFiles())
        let mail = self.mail
        try await NIOThreadPool.singleton.runIfActive { try mail.removeDelivered(deliveries) }
        try await clients.purgeErased()
        wheels.cache.forget(client: id)
        results.renderedPages.forget(client: id)
        await roster.forget(id, in: trainer.companyId)
    }

    /// At start-up: an erasure that a crash cut off after its commit left the erased pages' old images in the
    /// write-ahead log (and perhaps their media files, which `MediaFileRemover.sweep` removes); they go now.
    public func finishInterrupted() async throws {
        try await clients.purgeErased()
    }
}
