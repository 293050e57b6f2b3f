import Foundation
import HealthwheelCore
import Reports
import StoreContract

/// Clients' progress reports: the client, their wheel, and each exercise's results in a period, worded for one
/// reader in the company's theme. Reading the period's results is one index range scan, so a report's cost does
/// not grow with results outside its period.
public struct ClientReports: Sendable {
    let audit: any AuditRepository
    let clients: any ClientRepository
    let companies: any CompanyRepository
    let media: any MediaRepository
    let results: any ResultRepository
    let trainers: any TrainerRepository
    let catalog: ExerciseCatalog
    let wheels: ClientWheels
    let themes: CompanyThemes
    let thumbnails: MediaThumbnails
    let clock: any WallClock

    /// One per process (`UseCases` builds it), sharing the wheel cache and the company themes.
    public init(
        store: Repositories,
        catalog: ExerciseCatalog,
        wheels: ClientWheels,
        themes: CompanyThemes,
        thumbnails: MediaThumbnails,
        clock: any WallClock
    ) {
        self.audit = store.audit
        self.clients = store.clients
        self.companies = store.companies
        self.media = store.media
        self.results = store.results
        self.trainers = store.trainers
        self.catalog = catalog
        self.wheels = wheels
        self.themes = themes
        self.thumbnails = thumbnails
        self.clock = clock
    }

    /// What a reader asks for; anything left out comes from the company's theme (language, units) or is the year
    /// up to now (period).
    public struct Options: Sendable {
        /// The period's start; nil means a year (365 days) before `to`.
        public var from: Date?
        /// The period's end; nil means now. A past end also dates the wheel: it shows the wheel as it stood then.
        public var to: Date?
        /// `en` or `es`; nil takes the company theme's language. Anything else is refused as `lang`.
        public var language: String?
        /// Metric or imperial; nil takes the company theme's units.
        public var units: Theme.Units?

        /// Options as a reader sends them; `report` checks them.
        public init(from: Date? = nil, to: Date? = nil, language: String? = nil, units: Theme.Units? = nil) {
            self.from = from
            self.to = to
            self.language = language
            self.units = units
        }
    }

    /// A period shows at most this many results, newest kept, and its stated start moves up to the oldest shown:
    /// a report is a summary, not an export.
    static let maximumResults = 5_000

    /// The client's report, worded and ready to render as HTML, PDF or email. Throws `notFound` for another company's
    /// client, `invalid` for an unknown language. A period that ends before it starts holds no results. At most
    /// 5,000 results, newest kept.
    public func report(client id: UUID, in company: UUID, options: Options) async throws -> ClientReport {
        let now = clock.now
        let to = options.to ?? now
        var from = options.from ?? to.addingTimeInterval(-365 * 86_400)
        guard let record = try await clients.find(id, in: company) else { throw ServiceError.notFound("client") }
        guard let companyRecord = try await companies.find(company) else { throw ServiceError.notFound("client") }
        let theme = try await themes.current(for: company)
        let strings = try readerStrings(asked: options.language, themeLanguage: theme.theme.locale)
        let trainer = try await record.client.assignedTrainerId.asyncMap { try await trainers.find($0, in: company) } ?? nil
        // The wheel as it stood at the period's end: a report of last spring shows last spring's wheel.
        let language = strings.language
        let slices = try await wheels.slices(client: id, company: company, asOf: to < now ? to : nil, language: language)
        let flagBelow = try await results.wheelStamp(client: id, in: company)?.flagBelow ?? HealthWheel.defaultFlagBelow
        var results = try await periodResults(of: id, in: company, from: from, to: to)
        if results.count > Self.maximumResults {
            // Newest first: the report keeps the newest and says truthfully where its period then starts.
            results.removeLast(results.count - Self.maximumResults)
            from = results.last?.recordedAt ?? from
        }
        // The wheel as it stood at the period's start: the summary's changes and the outline behind the wheel.
        var startDate = from
        var startSlices = try await wheels.slices(client: id, company: company, asOf: from, language: language)
        let scoredDays = results.filter { $0.score != nil }.map(\.recordedAt)
        if startSlices.allSatisfy({ $0.score == nil }), let first = scoredDays.min(), let day = Calendar.utc.dateInterval(of: .day, for: first),
            scoredDays.contains(where: { $0 >= day.end })
        {
            // Nothing was scored when the period began: progress is counted from the client's first assessment day in it.
            startDate = day.end.addingTimeInterval(-0.001)
            startSlices = try await wheels.slices(client: id, company: company, asOf: startDate, language: language)
        }
        let byExercise = Dictionary(grouping: results, by: \.exerciseId)
        let newest = byExercise.values.compactMap { $0.max { $0.recordedAt < $1.recordedAt }?.id }
        let media = try await reportMedia(of: newest, in: company)
        var exercises: [ReportInput.ExerciseResults] = []
        for category in catalog.wheelCategories(for: company, language: language).categories {
            for exercise in category.exercises {
                guard let entry = catalog.exercise(exercise.id, for: company, language: language) else { continue }
                let results = byExercise[exercise.id] ?? []
                let shown = results.max { $0.recordedAt < $1.recordedAt }.flatMap { media[$0.id] }
                exercises.append(
                    ReportInput.ExerciseResults(
                        exercise: entry.exercise,
                        categoryId: category.id,
                        results: results,
                        media: shown?.media ?? [],
                        morePhotos: shown?.morePhotos ?? 0
                    )
                )
            }
        }
        let input = ReportInput(
            companyName: companyRecord.name,
            theme: theme.theme,
            logo: theme.reportLogo,
            client: record.client,
            trainerName: trainer?.name,
            from: from,
            to: to,
            generatedAt: now,
            slices: slices,
            startSlices: startSlices,
            startDate: startDate,
            flagBelow: flagBelow,
            exercises: exercises
        )
        return ClientReport(input, strings: strings, units: options.units ?? theme.theme.units)
    }

    /// The report as one HTML page with its pictures inside (data URIs), for a browser or an app's web view.
    public func html(client id: UUID, in company: UUID, options: Options) async throws -> String {
        let report = try await report(client: id, in: company, options: options)
        let pictures = try await PictureQueue.run { try report.pictures() }
        return try ReportHTML.render(report) { picture in
            pictures[picture].map { "data:image/png;base64," + Data($0).base64EncodedString() }
        }
    }

    /// The report as an A4 PDF.
    public func pdf(client id: UUID, in company: UUID, options: Options) async throws -> [UInt8] {
        let report = try await report(client: id, in: company, options: options)
        return try await PictureQueue.run { try ReportPDF.render(report) }
    }

    /// The report as `trainer` reads it (HTML or PDF), recorded in the audit trail as viewed as a report once drawn.
    public func read(client id: UUID, by trainer: Trainer, options: Options, asPDF: Bool) async throws -> ReadReport {
        let read: ReadReport =
            asPDF
            ? .pdf(try await pdf(client: id, in: trainer.companyId, options: options))
            : .html(try await html(client: id, in: trainer.companyId, options: options))
        try await audit.record(.client(.viewedAsReport, id, by: trainer, at: clock.now))
        return read
    }

    /// A report as drawn for a reader.
    public enum ReadReport: Sendable {
        case html(String)
        case pdf([UInt8])
    }

    /// The photos (at most `ReportMedia.photosShown` each) and videos of `results`, as report thumbnails, drawn on
    /// the drawing threads; with the number of photos left out. A file whose thumbnail cannot be made is left out.
    private func reportMedia(of results: [UUID], in company: UUID) async throws -> [UUID: (media: [ReportMedia], morePhotos: Int)] {
        var shown: [UUID: (media: [ReportMedia], morePhotos: Int)] = [:]
        for (result, files) in try await media.list(results: results, in: company) {
            let photos = files.filter { $0.kind == .photo }
            var media: [ReportMedia] = []
            for file in files where file.kind == .video || photos.prefix(ReportMedia.photosShown).contains(where: { $0.id == file.id }) {
                if let item = try? await thumbnails.reportPicture(of: file, in: company) { media.append(item) }
            }
            shown[result] = (media, max(0, photos.count - ReportMedia.photosShown))
        }
        return shown
    }

    /// The period's results, newest first: at most one more than `maximumResults`, read in one query.
    private func periodResults(of client: UUID, in company: UUID, from: Date, to: Date) async throws -> [ResultSummary] {
        try await results.summaries(client: client, in: company, from: from, to: to, limit: Self.maximumResults + 1)
    }
}
