import Foundation
import HealthwheelCore
import StoreContract

/// Everything the server holds about one client, for them to take away (GDPR Art. 15 and 20): what the door
/// packs as one download (`GET /v1/clients/{id}/export`, a ZIP). Read here; media files are opened by the door
/// one at a time while it sends them, so an export of any size holds one chunk of them in memory.
public struct ClientExport: Sendable {
    let audit: any AuditRepository
    let clients: any ClientRepository
    let deliveries: any DeliveryRepository
    let results: any ResultRepository
    let screenings: any ScreeningRepository
    let fhir: ClientFHIR
    let reports: ClientReports
    let media: ResultMedia
    let clock: any WallClock

    /// One per process (`UseCases` builds it).
    init(store: Repositories, fhir: ClientFHIR, reports: ClientReports, media: ResultMedia, clock: any WallClock) {
        self.audit = store.audit
        self.clients = store.clients
        self.deliveries = store.deliveries
        self.results = store.results
        self.screenings = store.screenings
        self.fhir = fhir
        self.reports = reports
        self.media = media
        self.clock = clock
    }

    /// What an export holds, read at one moment.
    public struct Contents: Sendable {
        public var record: ClientRecord
        public var photo: ClientPhoto?
        /// Each screening with every change made to its answers after completion.
        public var screenings: [(screening: Screening, history: [AnswerRevision])]
        /// Each result with every earlier state of it (corrections, edits, rescores) and its photos and videos.
        public var results: [(result: AssessmentResult, revisions: [AssessmentResult.Revision], media: [MediaFile])]
        /// The report emails sent or queued about them.
        public var deliveries: [Delivery]
        /// The FHIR R4 Bundle of the same record, its media named by `mediaPath`.
        public var fhir: JSONValue
        /// The progress report of the last year as a PDF, or why it could not be drawn.
        public var report: Result<[UInt8], any Error>
        public var exportedAt: Date
    }

    /// Where a media file goes inside the export.
    public static func mediaPath(_ file: MediaFile) -> String {
        "media/\(file.id.lowercaseHyphenated).\(file.format.fileExtension)"
    }

    /// The client's whole record, for an admin or the client's assigned trainer (`forbidden` for other trainers,
    /// `notFound` for another company's client); recorded in the audit trail as exported.
    public func contents(_ id: UUID, by trainer: Trainer) async throws -> Contents {
        let company = trainer.companyId
        guard let record = try await clients.find(id, in: company) else { throw ServiceError.notFound("client") }
        guard trainer.role == .admin || record.client.assignedTrainerId == trainer.id else {
            throw ServiceError.forbidden(detail: "only an admin or the client's assigned trainer can export a client's record")
        }
        let fhirRecord = try await fhir.record(id, in: company)
        var screenings: [(Screening, [AnswerRevision])] = []
        for screening in fhirRecord.screenings {
            screenings.append((screening, try await self.screenings.history(of: screening.id, client: id, in: company) ?? []))
        }
        let revisions = try await results.revisions(client: id, in: company)
        let results = fhirRecord.results.map { ($0.result, revisions[$0.result.id] ?? [], $0.media) }
        let deliveries = try await self.deliveries.all(client: id, in: company)
        let report: Result<[UInt8], any Error>
        do {
            report = .success(try await reports.pdf(client: id, in: company, options: .init()))
        } catch {
            report = .failure(error)
        }
        let now = clock.now
        try await audit.record(.client(.exported, id, by: trainer, at: now))
        return Contents(
            record: record,
            photo: try await clients.photo(of: id, in: company),
            screenings: screenings,
            results: results,
            deliveries: deliveries,
            fhir: FHIR.bundle(fhirRecord, mediaURL: Self.mediaPath, now: now),
            report: report,
            exportedAt: now
        )
    }

    /// Opens a media file of the export to read it by ranges (close the reader when done).
    public func open(_ file: MediaFile) async throws -> any MediaReading {
        try await media.open(file.id, in: file.companyId).reader
    }

    /// Reads the whole of an open file a step at a time, handing each step's pieces to `send` before reading on.
    public func stream(_ reader: any MediaReading, to send: ([[UInt8]]) async throws -> Void) async throws {
        try await media.stream(reader, 0..<reader.length, to: send)
    }
}
