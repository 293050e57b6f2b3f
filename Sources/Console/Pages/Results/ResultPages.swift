import API
import Foundation
import HealthwheelCore
import Hummingbird
import Reports
import Services
import StoreContract

/// `/clients/{id}/results`: recording a result (an exercise picked by category, its steps and pictures, its fields
/// in the company's units, observations; the score when saved; a correction offered within the window), the
/// history with revisions, and each result's photos and videos (uploaded with progress, captions edited in place,
/// deleted).
struct ResultPages: Sendable {
    let useCases: UseCases
    let frames: Frames

    static let pageSize = 25

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("clients/:id/results/new", use: new)
        group.post("clients/:id/results", use: record)
        group.get("clients/:id/results", use: history)
        group.get("clients/:id/results/:result", use: detail)
        group.post("clients/:id/results/:result/delete", use: delete)
        group.post("clients/:id/results/:result/media", use: upload)
        group.post("clients/:id/results/:result/media/:media/caption", use: caption)
        group.post("clients/:id/results/:result/media/:media/delete", use: deleteMedia)
        group.get("media/:id/file", use: file)
        group.get("exercise-images/**", use: stepImage)
    }

    // MARK: Recording

    struct NewResultPage {
        var link: String
        var clientName: String
        var categories: [CategoryChoice]
        var exercise: ExerciseForm?
        var errorList: [ConsolePageErrors.FieldLine]
    }

    struct CategoryChoice {
        var name: String
        var categoryClass: String
        var exercises: [ExerciseChoice]
    }

    struct ExerciseChoice {
        var name: String
        var href: String
        var current: Bool
    }

    struct ExerciseForm {
        var id: String
        var name: String
        var description: String
        var considerations: String?
        var steps: [StepView]
        var fields: [ValueField]
        var observations: String
        var recordedAt: String
        var correction: Correction?
    }

    struct StepView {
        var number: Int
        var text: String
        var image: String?
    }

    struct ValueField {
        var id: String
        var name: String
        var label: String
        var unit: String
        var value: String
        var error: String?
    }

    struct Correction {
        var summary: String
    }

    @Sendable func new(request: Request, context: SignedInContext) async throws -> Response {
        try await entryPage(request, context, posted: nil, errors: [], status: .ok)
    }

    @Sendable func record(request: Request, context: SignedInContext) async throws -> Response {
        let client = try context.id(of: "client")
        let form = context.form
        guard let exerciseId = form.text("exercise"), let entry = useCases.exercises.catalog.exercise(exerciseId, for: context.company) else {
            throw ServiceError.invalid("exercise", "is not an exercise of this company")
        }
        let units = try await frames.units(context)
        do {
            var values: [String: MeasurementInput] = [:]
            var problems = FieldErrorCollector()
            for field in entry.exercise.fields {
                let text = (form["value-\(field.key)"] ?? "").trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
                guard !text.isEmpty else { continue }
                guard let number = Double(text), number.isFinite else {
                    problems.add("values.\(field.key)", "must be a number")
                    continue
                }
                values[field.key] = MeasurementInput(value: number, unit: ResultFieldUnits.unit(field, units))
            }
            try problems.throwIfAny()
            var edit = ResultEdit(values: .set(values))
            if let observations = form.text("observations") { edit.observations = .set(observations) }
            if let taken = form.text("recordedAt") {
                guard let date = Self.localDateTime(taken) else { throw ValidationError("recordedAt", "must be a date and time") }
                edit.recordedAt = .set(date)
            }
            let (result, amended, _) = try await useCases.results.record(
                NewResult(clientId: client, exerciseId: entry.exercise.id, edit: edit, amendRecent: form["amend"] == "yes"),
                by: context.trainer,
                freshness: context.principal.freshness
            )
            return Notice.redirect(
                "/clients/\(client.lowercaseHyphenated)/results/\(result.id.lowercaseHyphenated)",
                amended ? "resultCorrected" : "resultSaved"
            )
            .response
        } catch  where !error.formErrors.isEmpty {
            return try await entryPage(request, context, posted: form, errors: error.formErrors, status: .unprocessableContent)
        }
    }

    /// `2027-03-14T09:30` as a date-time input sends it, read as UTC (the server's and the API's time zone).
    static func localDateTime(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private func entryPage(
        _ request: Request,
        _ context: SignedInContext,
        posted: FormFields?,
        errors: [FieldError],
        status: HTTPResponse.Status
    )
        async throws -> Response
    {
        let clientId = try context.id(of: "client")
        let framed = try await frames.frame(request, context, title: "results.newTitle", section: "clients")
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let language = framed.frame.language
        let units = framed.theme.theme.units
        let record = try await useCases.clients.roster.record(clientId, in: context.company, freshness: context.principal.freshness)
        let link = "/clients/\(clientId.lowercaseHyphenated)"
        let chosen = posted?["exercise"] ?? request.uri.queryParameters["exercise"].map(String.init)
        let categories = useCases.exercises.catalog.categories(for: context.company, language: language).map { category in
            CategoryChoice(
                name: category.pack.name,
                categoryClass: ThemeStylesheet.categoryClass(category.pack.id),
                exercises: category.pack.exercises.map {
                    ExerciseChoice(name: $0.name, href: "\(link)/results/new?exercise=\($0.id)", current: $0.id == chosen)
                }
            )
        }
        var exerciseForm: ExerciseForm?
        let byField = errors.byField
        if let chosen, let entry = useCases.exercises.catalog.exercise(chosen, for: context.company, language: language) {
            let exercise = entry.exercise
            let recent = try await useCases.results.correctable(client: clientId, exerciseId: exercise.id, by: context.trainer)
            let format = framed.format
            let imagesServed = entry.owner == ExerciseCatalog.everyCompany
            exerciseForm = ExerciseForm(
                id: exercise.id,
                name: exercise.name,
                description: exercise.description,
                considerations: exercise.considerations,
                steps: exercise.steps.enumerated().map { index, step in
                    StepView(number: index + 1, text: step.text, image: imagesServed ? step.image.map { "/exercise-images/\($0)" } : nil)
                },
                fields: exercise.fields.map { field in
                    let unit = ResultFieldUnits.unit(field, units)
                    return ValueField(
                        id: "value-\(field.key)",
                        name: "value-\(field.key)",
                        label: field.label,
                        unit: field.unitLabel ?? strings.text("units.\(unit)"),
                        value: posted?["value-\(field.key)"] ?? "",
                        error: byField["values.\(field.key)"] ?? byField["values"]
                    )
                },
                observations: posted?["observations"] ?? "",
                recordedAt: posted?["recordedAt"] ?? "",
                correction: recent.map { result in
                    Correction(
                        summary: strings.text(
                            "results.correctionOffer",
                            [
                                "values": format.values(result.values, of: exercise),
                                "score": result.score.map(format.score) ?? "–",
                            ]
                        )
                    )
                }
            )
        }
        let content = NewResultPage(
            link: link,
            clientName: record.client.fullName,
            categories: categories,
            exercise: exerciseForm,
            errorList: errors.map { error in
                // A value under its field's label, as the form shows it.
                let label = exerciseForm?.fields.first { "values.\($0.name.dropFirst("value-".count))" == error.field }?.label
                let own = strings.label("results.\(error.field == "recordedAt" ? "takenAt" : error.field)")
                return .init(field: label ?? own ?? error.field, message: error.message)
            }
        )
        return try frames.page("result-new", content, framed, status: status)
    }

    // MARK: History and a result

    struct HistoryPage {
        var link: String
        var clientName: String
        var items: [ResultLine]
        var nextLink: String?
        var exercises: [ExerciseChoice]
    }

    struct ResultLine {
        var href: String
        var date: String
        var exercise: String
        var values: String
        var score: String
        var scoreError: String?
        var revised: String?
        var photoCount: String?
    }

    @Sendable func history(request: Request, context: SignedInContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        let framed = try await frames.frame(request, context, title: "results.historyTitle", section: "clients")
        let strings = framed.strings
        let format = framed.format
        let language = framed.frame.language
        let record = try await useCases.clients.roster.record(clientId, in: context.company, freshness: context.principal.freshness)
        let exerciseFilter = request.uri.queryParameters["exercise"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let cursor = request.uri.queryParameters["cursor"].flatMap { Cursor(token: String($0)) }
        let page = try await useCases.results.list(
            client: clientId,
            in: context.company,
            filter: ResultFilter(exerciseId: exerciseFilter),
            after: cursor,
            limit: Self.pageSize
        )
        let media = try await useCases.media.library.list(results: page.items.map(\.id), in: context.company)
        let link = "/clients/\(clientId.lowercaseHyphenated)"
        let items = page.items.map { result in
            let exercise = useCases.exercises.catalog.exercise(result.exerciseId, for: context.company, language: language)?.exercise
            let photos = media[result.id]?.count ?? 0
            return ResultLine(
                href: "\(link)/results/\(result.id.lowercaseHyphenated)",
                date: format.date(result.recordedAt),
                exercise: exercise?.name ?? result.exerciseId,
                values: exercise.map { format.values(result.values, of: $0) } ?? "",
                score: result.score.map(format.score) ?? "–",
                scoreError: result.state.scoreError.map { _ in strings.text("results.notScored") },
                revised: result.revision > 1 ? strings.text("results.revisions", ["count": String(result.revision - 1)]) : nil,
                photoCount: photos > 0 ? strings.text("results.mediaCount", ["count": String(photos)]) : nil
            )
        }
        let exercises = useCases.exercises.catalog.categories(for: context.company, language: language).flatMap(\.pack.exercises).map {
            ExerciseChoice(name: $0.name, href: $0.id, current: $0.id == exerciseFilter)
        }
        let content = HistoryPage(
            link: link,
            clientName: record.client.fullName,
            items: items,
            nextLink: page.nextCursor.map { "\(link)/results?" + RosterPages.query(["exercise": exerciseFilter ?? "", "cursor": $0.token]) },
            exercises: exercises
        )
        var framedPage = framed
        framedPage.frame.title = strings.text("results.historyOf", ["name": record.client.fullName])
        return try frames.page("results", content, framedPage)
    }

    struct DetailPage {
        var link: String
        var clientName: String
        var href: String
        var exercise: String
        var date: String
        var values: String
        var score: String
        var scoreError: String?
        var observations: String?
        var media: [MediaView]
        var revisions: [RevisionLine]
        var canDelete: Bool
        var uploadAction: String
    }

    struct MediaView {
        var isVideo: Bool
        var thumbnail: String
        var file: String
        var caption: String
        var captionAction: String
        var deleteAction: String
        var alt: String
        var id: String
    }

    struct RevisionLine {
        var number: Int
        var values: String
        var score: String
        var date: String
        var replacedOn: String
        var reason: String
    }

    @Sendable func detail(request: Request, context: SignedInContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        let result = try await result(context)
        let framed = try await frames.frame(request, context, title: "results.detailTitle", section: "clients")
        let strings = framed.strings
        let format = framed.format
        let record = try await useCases.clients.roster.record(clientId, in: context.company, freshness: context.principal.freshness)
        let exercise = useCases.exercises.catalog.exercise(result.exerciseId, for: context.company, language: framed.frame.language)?.exercise
        let files = try await useCases.media.library.list(result: result.id, in: context.company)
        let revisions = try await useCases.results.revisions(of: result)
        let link = "/clients/\(clientId.lowercaseHyphenated)"
        let href = "\(link)/results/\(result.id.lowercaseHyphenated)"
        let content = DetailPage(
            link: link,
            clientName: record.client.fullName,
            href: href,
            exercise: exercise?.name ?? result.exerciseId,
            date: format.date(result.recordedAt),
            values: exercise.map { format.values(result.values, of: $0) } ?? "",
            score: result.score.map(format.score) ?? "–",
            scoreError: result.state.scoreError,
            observations: result.observations,
            media: files.map { file in
                let id = file.id.lowercaseHyphenated
                return MediaView(
                    isVideo: file.kind == .video,
                    thumbnail: "/media/\(id)/thumbnail?size=320",
                    file: "/media/\(id)/file",
                    caption: file.caption ?? "",
                    captionAction: "\(href)/media/\(id)/caption",
                    deleteAction: "\(href)/media/\(id)/delete",
                    alt: file.caption ?? strings.text("client.photoOf", ["exercise": exercise?.name ?? result.exerciseId]),
                    id: id
                )
            },
            revisions: revisions.reversed().map { revision in
                RevisionLine(
                    number: revision.revision,
                    values: exercise.map { format.values(revision.state.values, of: $0) } ?? "",
                    score: revision.state.score.map(format.score) ?? "–",
                    date: format.date(revision.state.recordedAt),
                    replacedOn: format.date(revision.replacedAt),
                    reason: strings.text("results.reason.\(revision.reason.rawValue)")
                )
            },
            canDelete: context.trainer.role == Role.admin || result.trainerId == context.trainer.id,
            uploadAction: "\(href)/media?csrf=\(context.session.csrfToken)"
        )
        var framedPage = framed
        framedPage.frame.title = "\(content.exercise) · \(record.client.fullName)"
        return try frames.page("result", content, framedPage)
    }

    /// The result the path names, if it is the path's client's and the company's: anything else is a 404.
    private func result(_ context: SignedInContext) async throws -> AssessmentResult {
        let clientId = try context.id(of: "client")
        let result = try await useCases.results.result(try context.id("result", of: "result"), in: context.company)
        guard result.clientId == clientId else { throw ServiceError.notFound("result") }
        return result
    }

    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        let result = try await result(context)
        try await useCases.results.delete(result, by: context.trainer)
        return Notice.redirect("/clients/\(result.clientId.lowercaseHyphenated)/results", "resultDeleted").response
    }

    // MARK: Media

    /// A photo or video posted by the form (or by script, with its progress shown): streamed into the result's
    /// media, then back to the result's page.
    @Sendable func upload(request: Request, context: SignedInContext) async throws -> Response {
        let result = try await result(context)
        _ = try await MediaUploadRequest.receive(request, to: result.id, by: context.trainer, media: useCases.media.library)
        return Notice.redirect(Self.path(of: result), "photoSaved").response
    }

    @Sendable func caption(request: Request, context: SignedInContext) async throws -> Response {
        let (result, media) = try await resultMedia(context)
        _ = try await useCases.media.library.setCaption(context.form["caption"], of: media, by: context.trainer)
        return Notice.redirect(Self.path(of: result), "captionSaved").response
    }

    @Sendable func deleteMedia(request: Request, context: SignedInContext) async throws -> Response {
        let (result, media) = try await resultMedia(context)
        try await useCases.media.library.delete(media, by: context.trainer)
        return ConsoleRedirect(location: Self.path(of: result)).response
    }

    /// The result and the media file the path names, when the file is the result's: anything else is a 404.
    private func resultMedia(_ context: SignedInContext) async throws -> (result: AssessmentResult, media: UUID) {
        let result = try await result(context)
        let media = try context.id("media", of: "media")
        guard try await useCases.media.library.find(media, in: context.company).resultId == result.id else { throw ServiceError.notFound("media") }
        return (result, media)
    }

    /// A result's page.
    static func path(of result: AssessmentResult) -> String {
        "/clients/\(result.clientId.lowercaseHyphenated)/results/\(result.id.lowercaseHyphenated)"
    }

    @Sendable func file(request: Request, context: SignedInContext) async throws -> Response {
        try await MediaDownload.response(to: request, for: try context.id(of: "media"), in: context.company, media: useCases.media.library)
    }

    @Sendable func stepImage(request: Request, context: SignedInContext) async throws -> Response {
        guard let image = try await useCases.exercises.catalog.stepImage(context.parameters.getCatchAll().joined(separator: "/")) else {
            throw ServiceError.notFound("image")
        }
        return Picture.response(image.bytes, contentType: image.contentType, cacheControl: "private, max-age=86400")
    }
}
