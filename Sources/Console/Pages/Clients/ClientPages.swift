import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Reports
import Services

/// `/clients/{id}`: a client's page (header, the wheel with a compare date, at a glance, each category's trend,
/// the latest results with their photos), and the pictures it shows: the wheel, the client's avatar and result
/// photos' thumbnails. Another company's client is a 404 page, as a missing one.
struct ClientPages: Sendable {
    let useCases: UseCases
    let frames: Frames

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("clients/:id", use: page)
        group.get("clients/:id/wheel.svg", use: wheel)
        group.get("clients/:id/photo", use: photo)
        group.get("media/:id/thumbnail", use: thumbnail)
    }

    struct ClientPage {
        var link: String
        var header: ClientHeader
        var wheel: String
        var wheelAlt: String
        var compare: String?
        var today: String
        var glance: [GlanceRow]
        var trends: [TrendChart]
        var latest: [LatestResult]
        var canRecord: Bool
        var isAdmin: Bool
    }

    struct ClientHeader {
        var name: String
        var initials: String
        var photo: String?
        var age: String?
        var goal: String?
        var trainer: String?
        var screening: String
        var screeningLabel: String
        var screeningDue: String?
        var flags: String?
        var contact: String?
    }

    struct GlanceRow {
        var name: String
        var categoryClass: String
        var score: String
        var change: String?
        var changeDirection: String
        var flagged: Bool
        var weakest: String?
    }

    struct LatestResult {
        var date: String
        var exercise: String
        var values: String
        var score: String
        var photos: [Photo]
    }

    struct Photo {
        var src: String
        var alt: String
    }

    @Sendable func page(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "client")
        var framed = try await frames.frame(request, context, title: "client.title", section: "clients")
        let compareDay = request.uri.queryParameters["compare"].flatMap { CalendarDate(String($0)) }
        let basis = try await useCases.clients.overview.basis(
            client: id,
            in: context.company,
            language: framed.frame.language,
            freshness: context.principal.freshness
        )
        let now = useCases.clock.now
        framed.frame.title = basis.record.client.fullName
        // Everything the page is made from: the basis, the day (ages, due dates), the compare date, the theme
        // (units), who reads it.
        let inputs = PageRenderer.inputs([
            basis.fingerprint, CalendarDate(now).description, compareDay?.description ?? "-", String(framed.theme.version),
            context.trainer.role.rawValue,
        ])
        return try await frames.page("client", framed, inputs: inputs) {
            try await content(of: basis, compareDay: compareDay, framed: framed, context: context, now: now)
        }
    }

    private func content(
        of basis: ClientOverview.Basis,
        compareDay: CalendarDate?,
        framed: Frames.Framed,
        context: SignedInContext,
        now: Date
    )
        async throws -> ClientPage
    {
        let strings = framed.strings
        let format = framed.format
        let overview = try await useCases.clients.overview.overview(
            of: basis,
            in: context.company,
            language: framed.frame.language,
            compare: compareDay.map(\.end)
        )
        let client = overview.record.client
        let id = client.id
        let state = ScreeningDue.state(overview.record.screening, now: now)
        let link = "/clients/\(id.lowercaseHyphenated)"
        let header = ClientHeader(
            name: client.fullName,
            initials: String([client.givenName?.first, client.familyName?.first].compactMap { $0 }),
            photo: overview.record.hasPhoto ? link + "/photo?size=192" : nil,
            age: client.birthDate.map { strings.text("roster.age", ["years": String($0.years(until: CalendarDate(now)))]) },
            goal: client.goal,
            trainer: overview.trainer?.name,
            screening: state.rawValue,
            screeningLabel: strings.text("screeningState.\(state.rawValue)"),
            screeningDue: overview.record.screening.latestCompletedAt.map {
                strings.text("client.rescreenOn", ["date": format.date(ScreeningOverview.rescreenDueAt(after: $0))])
            },
            flags: overview.record.screening.latestCompletedFlags.isEmpty
                ? nil : overview.record.screening.latestCompletedFlags.joined(separator: ", "),
            contact: [client.email, client.phone].compactMap { $0 }.joined(separator: " · ").nilIfEmpty
        )
        let compared = overview.compared.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.categoryId, $0) }) }
        let glance = overview.slices.map { slice -> GlanceRow in
            let before = compared?[slice.categoryId]?.score
            var change: String?
            var direction = "same"
            if let now = slice.score, let before {
                let delta = ((now - before) * 10).rounded() / 10
                change = (delta > 0 ? "+" : "") + format.score(delta)
                direction = delta > 0 ? "up" : delta < 0 ? "down" : "same"
            }
            return GlanceRow(
                name: slice.name,
                categoryClass: ThemeStylesheet.categoryClass(slice.categoryId),
                score: slice.score.map(format.score) ?? "–",
                change: change,
                changeDirection: direction,
                flagged: slice.flagged,
                weakest: slice.weakest.map { $0.name }
            )
        }
        let catalog = useCases.exercises.catalog
        let language = framed.frame.language
        let trends = TrendChart.charts(
            slices: overview.slices,
            trends: overview.trends,
            to: now,
            strings: strings,
            score: format.score
        )
        let latest = overview.latest.map { result -> LatestResult in
            let exercise = catalog.exercise(result.exerciseId, for: context.company, language: language)?.exercise
            let photos = (overview.media[result.id] ?? []).map { file in
                Photo(
                    src: "/media/\(file.id.lowercaseHyphenated)/thumbnail?size=160",
                    alt: file.caption ?? strings.text("client.photoOf", ["exercise": exercise?.name ?? result.exerciseId])
                )
            }
            return LatestResult(
                date: format.date(result.recordedAt),
                exercise: exercise?.name ?? result.exerciseId,
                values: exercise.map { format.values(result.values, of: $0) } ?? "",
                score: result.score.map(format.score) ?? "–",
                photos: photos
            )
        }
        let compare = compareDay?.description
        return ClientPage(
            link: link,
            header: header,
            wheel: link + "/wheel.svg" + (compare.map { "?compare=\($0)" } ?? ""),
            wheelAlt: strings.text("client.wheelAlt", ["name": client.fullName])
                + " " + overview.slices.map { "\($0.name) \($0.score.map(format.score) ?? "–")" }.joined(separator: ", "),
            compare: compare,
            today: CalendarDate(now).description,
            glance: glance,
            trends: trends,
            latest: latest,
            canRecord: ScreeningOverview(overview.record.screening, now: now).allowsAssessments,
            isAdmin: context.trainer.role == Role.admin
        )
    }

    @Sendable func wheel(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "client")
        let compare = request.uri.queryParameters["compare"].flatMap { CalendarDate(String($0)) }.map(\.end)
        let theme = try await useCases.themes.companies.current(for: context.company, freshness: context.principal.freshness)
        let language = ConsoleStrings.language(accepting: request.headers[.acceptLanguage], fallback: theme.theme.locale)
        let bytes = try await useCases.wheels.pictures.picture(
            client: id,
            company: context.company,
            format: .svg,
            width: 640,
            language: language,
            compare: compare
        )
        return Picture.response(bytes, contentType: "image/svg+xml", cacheControl: "private, no-cache")
    }

    @Sendable func photo(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "client")
        let size = request.uri.queryParameters["size"].flatMap { Int($0) } ?? 96
        guard let photo = try await useCases.clients.roster.photo(of: id, in: context.company, fitting: size) else {
            throw ServiceError.notFound("photo")
        }
        return Response(
            status: .ok,
            headers: [.contentType: photo.contentType, .cacheControl: "private, no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes))
        )
    }

    @Sendable func thumbnail(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "media")
        let size = request.uri.queryParameters["size"].flatMap { Int($0) } ?? 160
        let thumbnail = try await useCases.media.thumbnails.thumbnail(of: id, in: context.company, size: size)
        if request.headers[.ifNoneMatch] == thumbnail.tag { return Response(status: .notModified, headers: [.eTag: thumbnail.tag]) }
        return Response(
            status: .ok,
            headers: [.contentType: thumbnail.contentType, .cacheControl: "private, max-age=86400", .eTag: thumbnail.tag],
            body: .init(byteBuffer: ByteBuffer(bytes: thumbnail.bytes))
        )
    }
}

extension String {
    /// Nil for an empty string: a header line with nothing to say is left out.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
