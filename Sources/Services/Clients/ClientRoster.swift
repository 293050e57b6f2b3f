import Foundation
import HealthwheelCore
import Media
import Reports
import StoreContract
import Workers

/// A company's clients: listed and searched (from an in-memory directory while the list is unchanged), created,
/// edited, deleted, and their photos. Every trainer of the company sees every client; deleting one is for an
/// admin or the client's assigned trainer.
public struct ClientRoster: Sendable {
    let clients: any ClientRepository
    let trainers: any TrainerRepository
    let audit: any AuditRepository
    /// Removes the files of media that a delete took with it (nil where no media are kept, as in some tests).
    let mediaFiles: MediaFileRemover?
    let clock: any WallClock
    /// Where client photos are read and decoded: never in the server's process.
    let mediaWorkers: MediaWorkers
    let directories: ClientDirectoryCache
    /// Avatars drawn from client photos (`photo(of:in:fitting:)`), 16 MiB at most.
    private let avatars = MemoryLimitedCache<ClientPhoto>(limit: 16 << 20)
    /// Clients as `render` made them for `renderedRecord`, 8 MiB at most.
    private let renderedRecords = MemoryLimitedCache<RenderedRecord>(limit: 8 << 20)
    private let render: @Sendable (ClientRecord, Date) throws -> [UInt8]

    /// `render` makes the bytes a directory keeps per client (the API: its JSON in metric units); `limits` bound
    /// what the directories hold, and `onHeldChange` hears how many lists and bytes they hold.
    public init(
        store: Repositories,
        clock: any WallClock,
        mediaWorkers: MediaWorkers,
        limits: ClientDirectoryCache.Limits = .init(),
        onHeldChange: @escaping @Sendable (_ lists: Int, _ bytes: Int) -> Void = { _, _ in },
        mediaFiles: MediaFileRemover? = nil,
        render: @escaping @Sendable (ClientRecord, Date) throws -> [UInt8]
    ) {
        self.mediaFiles = mediaFiles
        self.clients = store.clients
        self.trainers = store.trainers
        self.audit = store.audit
        self.clock = clock
        self.mediaWorkers = mediaWorkers
        self.directories = ClientDirectoryCache(limits: limits, onChange: onHeldChange)
        self.render = render
    }

    /// One page of a list: rendered already (from the directory), or read from the store while the directory is
    /// being built, when the company's list is too large to hold, or when the caller asked for records.
    public enum Listing: Sendable {
        /// Each client as `render` made it, in list order, and where the list goes on.
        case rendered(items: [[UInt8]], nextCursor: Cursor?)
        case stored(Page<ClientRecord>)
    }

    /// Clients matching every word of `search` (all when nil), in list order, after `cursor`. Both kinds of answer
    /// hold the same clients in the same order with the same cursors. `rendered: false` always reads records (for
    /// a rendering the directory does not keep). `freshness`: what the session's read found.
    public func list(
        in company: UUID,
        search: String?,
        after cursor: Cursor?,
        limit: Int,
        now: Date,
        rendered: Bool = true,
        freshness: Freshness = .unknown
    ) async throws -> Listing {
        guard rendered else { return .stored(try await clients.list(in: company, query: search, after: cursor, limit: limit)) }
        switch try await listing(in: company, search: search, after: cursor, limit: limit, now: now, knownVersion: freshness.clientsVersion) {
        case .directory(let entries, let nextCursor): return .rendered(items: entries.map(\.rendered), nextCursor: nextCursor)
        case .stored(let page): return .stored(page)
        }
    }

    /// Where a page of the list came from.
    private enum Source {
        case directory([ClientDirectory.Entry], nextCursor: Cursor?)
        case stored(Page<ClientRecord>)
    }

    /// A page from the company's directory (built when missing or out of date), or from the store while it is
    /// being built or when the list is too large to hold.
    private func listing(
        in company: UUID,
        search: String?,
        after cursor: Cursor?,
        limit: Int,
        now: Date,
        knownVersion: Int64?
    ) async throws -> Source {
        let version: Int64
        if let knownVersion { version = knownVersion } else { version = try await clients.listVersion(of: company) }
        let build = { @Sendable [clients, render] (maximumClients: Int) async throws -> ClientDirectory.Build in
            try await BackgroundThread.directories.run {
                let outcome = try { () throws -> ClientDirectory.Build in
                    var builder = ClientDirectory.Builder(now: now, render: render)
                    let (version, count) = try clients.scan(of: company, ifAtMost: maximumClients) { record, sortName in
                        try builder.append(record, sortName: sortName)
                    }
                    return count > maximumClients ? .tooLarge(version: version) : .built(builder.finish(version: version))
                }()
                // The builder's arrays are gone now; only the list remains.
                ProcessMemory.returnFreedPages()
                return outcome
            }
        }
        if let directory = directories.directory(for: company, version: version, now: now, build: build) {
            let words = search.map(ClientSearch.queryWords) ?? []
            let (entries, nextCursor) = directory.page(matching: words, after: cursor, limit: limit)
            return .directory(entries, nextCursor: nextCursor)
        }
        return .stored(try await clients.list(in: company, query: search, after: cursor, limit: limit))
    }

    /// The company's client list version: it moves with every change to any of its clients (`freshness`: what
    /// the session's read found, where the database is shared).
    public func listVersion(of company: UUID, freshness: Freshness = .unknown) async throws -> Int64 {
        if let known = freshness.clientsVersion { return known }
        return try await clients.listVersion(of: company)
    }

    /// Clients matching every word of `search`, in list order, after `cursor`, as a list shows them: from the
    /// in-memory directory as `list` answers, else read from the store.
    public func summaries(
        in company: UUID,
        search: String?,
        after cursor: Cursor?,
        limit: Int,
        now: Date,
        freshness: Freshness = .unknown
    ) async throws -> (items: [ClientSummary], nextCursor: Cursor?) {
        switch try await listing(in: company, search: search, after: cursor, limit: limit, now: now, knownVersion: freshness.clientsVersion) {
        case .directory(let entries, let nextCursor): (entries.map(\.summary), nextCursor)
        case .stored(let page): (page.items.map(ClientSummary.init), page.nextCursor)
        }
    }

    /// A new client of the trainer's company, assigned to the trainer unless the edit names another.
    public func create(_ edit: ClientEdit, by trainer: Trainer) async throws -> ClientRecord {
        try await create(edit, id: nil, by: trainer).record
    }

    /// A new client, under `id` when an app chose it (`AppChosenIds`): a retry of the same body is the client as
    /// stored, another body is `id-taken`, a client deleted meanwhile is `record-removed`.
    public func create(_ edit: ClientEdit, id: UUID?, by trainer: Trainer) async throws -> AppChosenIds.Outcome<ClientRecord> {
        let now = clock.now
        let company = trainer.companyId
        if let id {
            if let stored = try await clients.find(id, in: company, knownVersion: nil) {
                var edited = stored.client
                try edit.apply(to: &edited, today: CalendarDate(now))
                guard edited == stored.client else { throw AppChosenIds.taken("client") }
                return .replayed(stored)
            }
            if try await audit.wasRemoved(.client, id, client: id, in: company) { throw AppChosenIds.removed("client") }
        }
        var client = Client(id: id, companyId: company, createdAt: now)
        client.assignedTrainerId = trainer.id
        try edit.apply(to: &client, today: CalendarDate(now))
        try await requireTrainer(client.assignedTrainerId, in: company)
        do {
            try await clients.create(client, audit: .client(.created, client.id, by: trainer, at: now))
        } catch is RecordIdTaken {
            throw AppChosenIds.taken("client")
        }
        return .created(try await record(client.id, in: company))
    }

    /// The client, if it is the company's. `freshness`: the company's client list version as the request's
    /// session read found it (`Freshness.clientsVersion`), against which a cached record is checked.
    public func record(_ id: UUID, in company: UUID, freshness: Freshness = .unknown) async throws -> ClientRecord {
        guard let record = try await clients.find(id, in: company, knownVersion: freshness.clientsVersion) else {
            throw ServiceError.notFound("client")
        }
        return record
    }

    /// One client as `render` made it, with the record it was made from and the next moment a computed field
    /// (age, `rescreenDue`) could change.
    private struct RenderedRecord: Sendable {
        var record: ClientRecord
        var validUntil: Date
        var bytes: [UInt8]
    }

    /// The client as `render` makes it (the API: its JSON in metric units), made again only when the record read
    /// is not the one it was made from or a computed field may have changed since: a trainer's app reads the same
    /// client again and again, and comparing two records costs a fraction of rendering one.
    public func renderedRecord(_ id: UUID, in company: UUID, freshness: Freshness = .unknown) async throws -> [UInt8] {
        let record = try await record(id, in: company, freshness: freshness)
        let now = clock.now
        let key = id.uppercaseHyphenated
        if let kept = renderedRecords.get(key), now < kept.validUntil, kept.record == record { return kept.bytes }
        let bytes = try render(record, now)
        let validUntil = ClientDirectory.renderedUntil(record, now: now)
        renderedRecords.put(key, RenderedRecord(record: record, validUntil: validUntil, bytes: bytes), cost: 2 * bytes.count)
        return bytes
    }

    /// Applies `edit`; `updatedAt` moves only when something changed.
    public func update(_ id: UUID, with edit: ClientEdit, by trainer: Trainer) async throws -> ClientRecord {
        if case .set(let assigned) = edit.assignedTrainerId { try await requireTrainer(assigned, in: trainer.companyId) }
        let now = clock.now
        let record = try await clients.update(id, in: trainer.companyId, audit: .client(.changed, id, by: trainer, at: now)) { client in
            let before = client
            try edit.apply(to: &client, today: CalendarDate(now))
            try Self.requireName(client, field: edit.givenName == .unchanged ? "familyName" : "givenName")
            if client != before { client.updatedAt = now }
        }
        guard let record else { throw ServiceError.notFound("client") }
        return record
    }

    /// Deletes the client with everything recorded for them.
    public func delete(_ id: UUID, by trainer: Trainer) async throws {
        let record = try await record(id, in: trainer.companyId)
        guard trainer.role == .admin || record.client.assignedTrainerId == trainer.id else {
            throw ServiceError.forbidden(detail: "only an admin or the client's assigned trainer can delete a client")
        }
        guard try await clients.delete(id, in: trainer.companyId, audit: .client(.deleted, id, by: trainer, at: clock.now)) else {
            throw ServiceError.notFound("client")
        }
        // Their results' media rows went with them; the files go now.
        try await mediaFiles?.removeFiles()
    }

    /// Lets go of what memory holds of an erased client: the company's list, their rendering and avatars.
    func forget(_ client: UUID, in company: UUID) async {
        let prefix = "\(client)-"
        avatars.forget { $0.hasPrefix(prefix) }
        let key = client.uppercaseHyphenated
        renderedRecords.forget { $0 == key }
        await directories.forget(company)
    }

    /// The client's photo as uploaded, or nil when they have none.
    public func photo(of id: UUID, in company: UUID) async throws -> ClientPhoto? {
        try await clients.photo(of: id, in: company)
    }

    /// The client's photo scaled to fit `size` × `size` (never enlarged) and turned upright, as a JPEG: an avatar
    /// for a list costs a few KiB instead of the whole photo. Nil when they have none; `invalid("size")` outside
    /// `MediaThumbnail.sizes`. Drawn by a media worker; the upload's pixel limit bounds the decoding.
    public func photo(of id: UUID, in company: UUID, fitting size: Int) async throws -> ClientPhoto? {
        guard MediaThumbnail.sizes.contains(size) else {
            throw ServiceError.invalid("size", "must be \(MediaThumbnail.sizes.lowerBound) to \(MediaThumbnail.sizes.upperBound) pixels")
        }
        guard let photo = try await photo(of: id, in: company) else { return nil }
        // Kept by the photo's content: a list shows the same avatars on every visit, and drawing one takes far
        // longer than hashing the photo that names it.
        var hasher = Hasher()
        photo.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = "\(id)-\(size)-\(photo.bytes.count)-\(hasher.finalize())"
        if let kept = avatars.get(key) { return kept }
        let jpeg: [UInt8]
        do {
            jpeg = try await mediaWorkers.photoThumbnail(photo.bytes, fitting: size, company: company)
        } catch {
            throw error.invalid("photo")
        }
        let avatar = ClientPhoto(contentType: "image/jpeg", bytes: jpeg)
        avatars.put(key, avatar, cost: jpeg.count)
        return avatar
    }

    /// Replaces the client's photo with `bytes`, which must be an image of `contentType` (`image/jpeg` or
    /// `image/png`) by its signature, with a sound header within `PictureLimit.clientPhoto`; nil removes it.
    /// Photos are stored and served as sent; their header is read by a media worker, and the limit holds for
    /// whatever decodes them.
    public func setPhoto(_ bytes: [UInt8]?, contentType: String, of id: UUID, by trainer: Trainer) async throws {
        var photo: ClientPhoto?
        if let bytes {
            guard ImageSignature.contentType(of: bytes) == contentType else {
                let format = contentType.split(separator: "/").last.map { $0.uppercased() } ?? contentType
                throw ServiceError.invalid("body", "is not a \(format) image")
            }
            do {
                _ = try await mediaWorkers.pictureHeader(bytes, limit: .clientPhoto, company: trainer.companyId)
            } catch {
                throw error.invalid("body")
            }
            photo = ClientPhoto(contentType: contentType, bytes: bytes)
        }
        let now = clock.now
        let audit = AuditEvent.client(.changed, id, by: trainer, at: now)
        guard try await clients.setPhoto(photo, of: id, in: trainer.companyId, at: now, audit: audit) else {
            throw ServiceError.notFound("client")
        }
    }

    /// Removes the client's photo. Like any delete it may be repeated: without a photo there is nothing to do
    /// (and nothing is written); an unknown client is still not found.
    public func removePhoto(of id: UUID, by trainer: Trainer) async throws {
        guard try await record(id, in: trainer.companyId).hasPhoto else { return }
        try await setPhoto(nil, contentType: "", of: id, by: trainer)
    }

    /// A client without a photo: their photo is a resource that is not there (the client is).
    public static let noPhoto = ServiceError.absent(slug: "no-photo", detail: "the client has no photo")

    /// Imports vCards (see `ClientImport`).
    public func importCards(
        _ cards: [Result<VCardContact, VCardParser.Failure>],
        into company: UUID,
        assigningTo trainer: UUID?
    ) async throws -> ClientImport.Report {
        try await ClientImport(clients: clients, mediaWorkers: mediaWorkers, clock: clock).run(cards, into: company, assigningTo: trainer)
    }

    /// A file of vCards at most, and the cards in it.
    public static let maximumVCardBytes = 16 << 20
    public static let maximumVCards = 5_000

    /// Imports a file of vCards (UTF-8, or Latin-1 when it is not UTF-8) into the trainer's company, new clients
    /// assigned to the trainer: what both doors (the API's body, the console's upload) hand over.
    public func importVCardFile(_ bytes: some Collection<UInt8>, by trainer: Trainer) async throws -> ClientImport.Report {
        let text = String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
        let cards = VCardParser.parse(text)
        if cards.count > Self.maximumVCards { throw ServiceError.invalid("body", "holds more than \(Self.maximumVCards) cards") }
        return try await importCards(cards, into: trainer.companyId, assigningTo: trainer.id)
    }

    /// The company's clients as one vCard file, in list order.
    public func vCardFile(of company: UUID) async throws -> String {
        try await export(company).map { Self.vCard($0.client, photo: $0.photo) }.joined()
    }

    /// One client as a vCard: its own UID when it came from one, else its id as a URN.
    public static func vCard(_ client: Client, photo: ClientPhoto?) -> String {
        VCardWriter.card(
            for: client,
            uid: client.vcardUID ?? "urn:uuid:\(client.id.lowercaseHyphenated)",
            photo: photo.map { ($0.contentType, $0.bytes) }
        )
    }

    /// Every client of the company with their photo, in list order: an export.
    public func export(_ company: UUID) async throws -> [(client: Client, photo: ClientPhoto?)] {
        var clients: [(client: Client, photo: ClientPhoto?)] = []
        for client in try await self.clients.all(in: company) {
            clients.append((client, try await self.clients.photo(of: client.id, in: company)))
        }
        return clients
    }

    /// A client keeps a given name or a family name. `ClientEdit` refuses a body that alone leaves none (422);
    /// one that blanks the only name stored conflicts with the stored client (409 `name-required`, naming `field`).
    static func requireName(_ client: Client, field: String) throws {
        if client.givenName == nil && client.familyName == nil {
            throw ServiceError.conflict(
                slug: "name-required",
                detail: "a client needs a given name or a family name, and this would leave none",
                errors: [FieldError(field, "would leave the client without a name")]
            )
        }
    }

    /// An assigned trainer must be a trainer of the client's company.
    private func requireTrainer(_ id: UUID?, in company: UUID) async throws {
        guard let id else { return }
        if try await trainers.find(id, in: company) == nil {
            throw ServiceError.unknownReference(field: "assignedTrainerId", message: "is not a trainer of your company")
        }
    }
}
