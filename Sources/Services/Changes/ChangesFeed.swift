import Foundation
import HealthwheelCore
import StoreContract

/// A company's changes feed (`GET /v1/changes`): every change to its clients, screenings, results, media,
/// deliveries, trainers and theme, in the order they committed, each with the record as it is now or a tombstone.
///
/// The audit trail is the feed's log (`RecordChange`): lines are read in their order after the app's cursor, so
/// no change is ever skipped, and the feed writes nothing. Within one page a record changed several times
/// appears once, at its last change, with its current state. What a trainer may not read (another trainer's
/// account, for a trainer who is not an admin) is left out. Pages are kept rendered until the company's trail
/// moves (every change appends a line, an erasure too) or a computed field may change.
public struct ChangesFeed: Sendable {
    /// One change: the record as `GET` answers it now, or nil for a tombstone (deleted, erased, or gone since).
    public struct Item: Sendable {
        public var change: RecordChange
        public var record: Record?
    }

    /// The record of a change, as the use case that reads it returns it.
    public enum Record: Sendable {
        case client(ClientRecord)
        case screening(Screening)
        case result(AssessmentResult)
        case media(MediaFile)
        case delivery(Delivery)
        case trainer(Trainer)
        case theme(CompanyThemes.Current)
    }

    /// One page: its changes, oldest first; where the next page starts; whether more lines follow now.
    public struct Page: Sendable {
        public var items: [Item]
        public var cursor: ChangesCursor
        public var hasMore: Bool
    }

    /// What the API may ask for: a page of 1…`maximumLimit` changes, and a wait of at most `maximumWait`.
    public static let maximumLimit = 500
    public static let maximumWait: Duration = .seconds(30)

    let audit: any AuditRepository
    let roster: ClientRoster
    let screenings: ClientScreenings
    let results: AssessmentResults
    let media: ResultMedia
    let emails: ReportEmails
    let accounts: TrainerAccounts
    let themes: CompanyThemes
    let clock: any WallClock
    let render: @Sendable (Page, Date) throws -> [UInt8]
    private let watch: ChangeWatch
    private let renderedPages = MemoryLimitedCache<RenderedPage>(limit: 32 << 20)

    /// A page as `render` made it, valid while the company's newest line is `newest` and until `validUntil`.
    private struct RenderedPage: Sendable {
        var newest: Int64
        var validUntil: Date
        var bytes: [UInt8]
    }

    /// `render` is the door's form of a page (the API: its JSON).
    init(
        store: Repositories,
        roster: ClientRoster,
        screenings: ClientScreenings,
        results: AssessmentResults,
        media: ResultMedia,
        emails: ReportEmails,
        accounts: TrainerAccounts,
        themes: CompanyThemes,
        clock: any WallClock,
        render: @escaping @Sendable (Page, Date) throws -> [UInt8]
    ) {
        audit = store.audit
        self.roster = roster
        self.screenings = screenings
        self.results = results
        self.media = media
        self.emails = emails
        self.accounts = accounts
        self.themes = themes
        self.clock = clock
        self.render = render
        watch = ChangeWatch(audit: store.audit)
    }

    /// Where the trainer's company's feed ends now: what an app resynchronising from the lists asks for first,
    /// so that nothing changed while it reads them is missed.
    public func end(by trainer: Trainer) async throws -> ChangesCursor {
        let newest = try await audit.position(in: trainer.companyId, checking: 0).newest
        guard newest > 0 else { return .start }
        let hash = try await audit.position(in: trainer.companyId, checking: newest).hashAtSequence
        return ChangesCursor(after: newest, hash: hash ?? [])
    }

    /// The page after `cursor`, rendered. With `wait`, a request finding nothing new waits up to that long for a
    /// change. A cursor from a history the store no longer has is `gone`.
    public func renderedPage(after cursor: ChangesCursor, limit: Int, wait: Duration = .zero, by trainer: Trainer) async throws -> [UInt8] {
        let company = trainer.companyId
        var position = try await checkedPosition(of: cursor, in: company)
        if position.newest <= cursor.sequence && wait > .zero {
            await watch.wait(company: company, after: cursor.sequence, until: .now + min(wait, Self.maximumWait))
            position = try await checkedPosition(of: cursor, in: company)
        }
        // Non-admins see only their own account among the trainers: their pages are their own.
        let viewer = trainer.role == .admin ? "admin" : trainer.id.uuidString
        let key = "\(company.uuidString) \(viewer) \(cursor.token) \(limit)"
        let now = clock.now
        if let kept = renderedPages.get(key), kept.newest == position.newest, now < kept.validUntil { return kept.bytes }
        let page = try await self.page(after: cursor, limit: limit, by: trainer)
        let bytes = try render(page, now)
        let validUntil = page.items.reduce(Date.distantFuture) { until, item in
            guard case .client(let record) = item.record else { return until }
            return min(until, ClientDirectory.renderedUntil(record, now: now))
        }
        renderedPages.put(key, RenderedPage(newest: position.newest, validUntil: validUntil, bytes: bytes), cost: 2 * bytes.count + key.utf8.count)
        return bytes
    }

    /// The page after `cursor`: up to `limit` changes, reading the trail until it has them or reaches its end.
    public func page(after cursor: ChangesCursor, limit: Int, by trainer: Trainer) async throws -> Page {
        let company = trainer.companyId
        // Every change read, and where each record's latest one is: a record changed again is shown once, at its
        // latest place, with its latest state.
        var read: [RecordChange] = []
        var latest: [String: Int] = [:]
        var next = cursor
        var hasMore = false
        let batch = max(limit, 100)
        reading: while true {
            let lines = try await audit.events(in: company, after: next.sequence, limit: batch)
            for line in lines {
                let shown = RecordChange.changes(in: line.event).filter { visible($0, to: trainer) }
                let new = Set(shown.map(\.key)).subtracting(latest.keys).count
                // A page always takes its first line, so a page of one moves on past a line of two changes.
                if !latest.isEmpty && latest.count + new > limit {
                    hasMore = true
                    break reading
                }
                for change in shown {
                    latest[change.key] = read.count
                    read.append(change)
                }
                next = ChangesCursor(after: line.sequence, hash: line.hash ?? [])
            }
            if lines.count < batch { break }
        }
        var items: [Item] = []
        items.reserveCapacity(latest.count)
        for (index, change) in read.enumerated() where latest[change.key] == index {
            let record = change.removed ? nil : try await current(change, in: company, by: trainer)
            var shown = change
            shown.removed = record == nil
            items.append(Item(change: shown, record: record))
        }
        return Page(items: items, cursor: next, hasMore: hasMore)
    }

    /// The trail's position for `cursor`, or `gone` when the cursor follows a history the trail does not hold.
    private func checkedPosition(of cursor: ChangesCursor, in company: UUID) async throws -> AuditPosition {
        let position = try await audit.position(in: company, checking: cursor.sequence)
        guard cursor.isAfter(lineWithHash: position.hashAtSequence) else {
            throw ServiceError.gone(
                slug: "cursor-expired",
                detail:
                    "this cursor is from a history this server no longer holds: read the lists again, from the cursor GET /v1/changes?cursor=now gives",
                errors: [FieldError("cursor", "is from a history this server no longer holds")]
            )
        }
        return position
    }

    private func visible(_ change: RecordChange, to trainer: Trainer) -> Bool {
        change.kind != .trainer || trainer.role == .admin || change.id == trainer.id.lowercaseHyphenated
    }

    /// The record as it is now, or nil when it is gone (a later line of the trail says so too).
    private func current(_ change: RecordChange, in company: UUID, by trainer: Trainer) async throws -> Record? {
        do {
            switch change.kind {
            case .client:
                guard let id = UUID(hyphenatedHex: change.id) else { return nil }
                return .client(try await roster.record(id, in: company))
            case .screening:
                guard let id = UUID(hyphenatedHex: change.id), let client = change.clientId else { return nil }
                return .screening(try await screenings.screening(id, client: client, in: company))
            case .result:
                guard let id = UUID(hyphenatedHex: change.id) else { return nil }
                return .result(try await results.result(id, in: company))
            case .media:
                guard let id = UUID(hyphenatedHex: change.id) else { return nil }
                return .media(try await media.find(id, in: company))
            case .delivery:
                guard let id = UUID(hyphenatedHex: change.id) else { return nil }
                return .delivery(try await emails.delivery(id, in: company))
            case .trainer:
                guard let id = UUID(hyphenatedHex: change.id) else { return nil }
                return .trainer(try await accounts.profile(id, by: trainer))
            case .theme:
                return .theme(try await themes.current(for: company))
            }
        } catch ServiceError.notFound {
            return nil
        }
    }
}
