import Foundation
import HealthwheelCore
import Hummingbird
import Reports
import Services

/// `/clients/{id}/screening`: the client's latest screening as a form rendered from its questionnaire (every
/// field type, required marks, help), saved as a draft or completed with each error beside its field; once
/// completed, shown locked with only the fields editable after completion (personal details, the goal) as
/// inputs, and when the next screening is due.
struct ScreeningPages: Sendable {
    let screenings: ClientScreenings
    let questionnaires: QuestionnaireCatalog
    let roster: ClientRoster
    let frames: Frames

    /// The questionnaire a first screening starts from.
    static let defaultQuestionnaire = "screening"

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("clients/:id/screening", use: show)
        group.post("clients/:id/screening", use: save)
        group.post("clients/:id/screening/new", use: startNew)
    }

    struct Page {
        var link: String
        var clientName: String
        var title: String
        var description: String?
        var state: String
        var stateLabel: String
        var locked: Bool
        var completedOn: String?
        var nextDue: String?
        var flags: [String]
        var sections: [SectionView]
        var errorList: [ConsolePageErrors.FieldLine]
        var screeningId: String
        var changes: [ChangeLine]
    }

    /// Named apart from the fields' `title` and `help`: a field without help must not show its section's.
    struct SectionView {
        var heading: String
        var intro: String?
        var fields: [FieldView]
    }

    struct FieldView {
        var id: String
        var key: String
        var title: String
        var help: String?
        var required: Bool
        var editable: Bool
        var shown: String
        var error: String?
        var enableNote: String?
        // One of these is true: the input the field takes.
        var isText: Bool
        var isLongText: Bool
        var isNumber: Bool
        var isBoolean: Bool
        var isChoice: Bool
        var isMultiChoice: Bool
        var isDate: Bool
        var isMeasurement: Bool
        var value: String
        var yes: Bool
        var no: Bool
        var options: [OptionView]
        var inputs: [MeasurementInputView]
        var unit: String?
        var minimum: String?
        var maximum: String?
        var maxLength: Int?
    }

    struct OptionView {
        var id: String
        var value: String
        var title: String
        var selected: Bool
    }

    struct MeasurementInputView {
        var id: String
        var name: String
        var value: String
        var unit: String
        var label: String
    }

    struct ChangeLine {
        var field: String
        var from: String
        var to: String
        var on: String
    }

    @Sendable func show(request: Request, context: SignedInContext) async throws -> Response {
        try await render(request, context, posted: nil, errors: [], status: .ok)
    }

    @Sendable func save(request: Request, context: SignedInContext) async throws -> Response {
        let client = try context.id(of: "client")
        let form = context.form
        let units = try await frames.units(context)
        var screening = try await screenings.list(client: client, in: context.company).first
        let questionnaire = try questionnaire(of: screening)
        let editor = ScreeningForm(questionnaire: questionnaire, units: units)
        let completing = form["action"] == "complete"
        // A first screening's form showed what the client's details prefill.
        var shown = screening?.answers
        if shown == nil { shown = ScreeningRules.prefill(from: try await clientRecord(client, context), for: questionnaire) }
        do {
            let changes = try editor.changes(form, answers: shown ?? [:]) { field in
                screening.map { !$0.isLocked || Self.editableAfterCompletion(field, in: questionnaire) } ?? true
            }
            if screening == nil {
                screening = try await screenings.start(questionnaire.id, client: client, by: context.trainer)
            }
            guard var current = screening else { throw ServiceError.notFound("screening") }
            if !changes.isEmpty { current = try await screenings.answer(changes, screening: current.id, client: client, by: context.trainer) }
            if completing && !current.isLocked {
                _ = try await screenings.complete(screening: current.id, client: client, by: context.trainer)
                return Notice.redirect("/clients/\(client.lowercaseHyphenated)", "screeningCompleted").response
            }
            return Notice.redirect("/clients/\(client.lowercaseHyphenated)/screening", "screeningSaved").response
        } catch  where !error.formErrors.isEmpty {
            // A refused answer changed nothing: the form comes back as posted. An incomplete screening (completing)
            // kept what was saved: the form comes back from the store, with the missing answers named.
            return try await render(request, context, posted: form, errors: error.formErrors, status: .unprocessableContent)
        }
    }

    @Sendable func startNew(request: Request, context: SignedInContext) async throws -> Response {
        let client = try context.id(of: "client")
        let latest = try await screenings.list(client: client, in: context.company).first
        guard let latest, latest.isLocked else { return ConsoleRedirect(location: "/clients/\(client.lowercaseHyphenated)/screening").response }
        _ = try await screenings.start(latest.questionnaireId, client: client, by: context.trainer)
        return Notice.redirect("/clients/\(client.lowercaseHyphenated)/screening", "screeningSaved").response
    }

    private func clientRecord(_ id: UUID, _ context: SignedInContext) async throws -> Client {
        try await roster.record(id, in: context.company, freshness: context.principal.freshness).client
    }

    private func questionnaire(of screening: Screening?) throws -> Questionnaire {
        guard
            let questionnaire = questionnaires[screening?.questionnaireId ?? Self.defaultQuestionnaire] ?? questionnaires.questionnaires.values.first
        else { throw ServiceError.notFound("questionnaire") }
        return questionnaire
    }

    static func editableAfterCompletion(_ field: Questionnaire.Field, in questionnaire: Questionnaire) -> Bool {
        questionnaire.allFields.first { $0.field.key == field.key }?.editableAfterCompletion ?? false
    }

    private func render(
        _ request: Request,
        _ context: SignedInContext,
        posted: FormFields?,
        errors: [FieldError],
        status: HTTPResponse.Status
    )
        async throws -> Response
    {
        let clientId = try context.id(of: "client")
        let framed = try await frames.frame(request, context, title: "screening.title", section: "clients")
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let format = framed.format
        let client = try await clientRecord(clientId, context)
        let screening = try await screenings.list(client: clientId, in: context.company).first
        let questionnaire = try questionnaire(of: screening)
        let editor = ScreeningForm(questionnaire: questionnaire, units: framed.theme.theme.units)
        let answers = screening?.answers ?? ScreeningRules.prefill(from: client, for: questionnaire)
        let locked = screening?.isLocked ?? false
        let byField = errors.byField
        let titles = Dictionary(questionnaire.allFields.map { ($0.field.key, $0.field.title) }, uniquingKeysWith: { first, _ in first })
        let sections = questionnaire.sections.map { section in
            SectionView(
                heading: section.title,
                intro: section.help,
                fields: section.fields.map { field in
                    let editable = !locked || (field.editableAfterCompletion ?? section.editableAfterCompletion ?? false)
                    return fieldView(
                        field,
                        editable: editable,
                        texts: posted.map { editor.submitted(field, $0) } ?? editor.texts(answers[field.key], field),
                        shown: Self.answerText(answers[field.key], field, format: format, strings: strings, units: framed.theme.theme.units),
                        error: byField[field.key],
                        enableNote: field.enableWhen.map { condition in
                            strings.text("screening.enableWhen", ["question": titles[condition.key] ?? condition.key])
                        },
                        editor: editor,
                        strings: strings
                    )
                }
            )
        }
        let state: String = screening.map { $0.isLocked ? "completed" : "draft" } ?? "none"
        var changes: [ChangeLine] = []
        if let screening, screening.status == .amended {
            changes = try await screenings.history(of: screening.id, client: clientId, in: context.company).reversed().map { revision in
                let field = questionnaire.field(revision.field)
                return ChangeLine(
                    field: field?.title ?? revision.field,
                    from: field.map { Self.answerText(revision.oldValue, $0, format: format, strings: strings, units: framed.theme.theme.units) }
                        ?? "",
                    to: field.map { Self.answerText(revision.newValue, $0, format: format, strings: strings, units: framed.theme.theme.units) } ?? "",
                    on: format.date(revision.changedAt)
                )
            }
        }
        let flagTitles = Dictionary(questionnaire.flags.map { ($0.flag, $0.title) }, uniquingKeysWith: { first, _ in first })
        let content = Page(
            link: "/clients/\(clientId.lowercaseHyphenated)",
            clientName: client.fullName,
            title: questionnaire.title,
            description: questionnaire.description,
            state: state,
            stateLabel: strings.text("screening.state.\(state)"),
            locked: locked,
            completedOn: screening?.completedAt.map(format.date),
            nextDue: screening?.completedAt.map { format.date(ScreeningOverview.rescreenDueAt(after: $0)) },
            flags: (screening?.flags ?? []).map { flagTitles[$0] ?? $0 },
            sections: sections,
            errorList: errors.map { error in
                let key = error.field.hasPrefix("answers.") ? String(error.field.dropFirst("answers.".count)) : error.field
                return .init(field: titles[key] ?? key, message: error.message)
            },
            screeningId: screening?.id.lowercaseHyphenated ?? "",
            changes: changes
        )
        var framedPage = framed
        framedPage.frame.title = strings.text("screening.pageTitle", ["name": client.fullName])
        return try frames.page("screening", content, framedPage, status: status)
    }

    private func fieldView(
        _ field: Questionnaire.Field,
        editable: Bool,
        texts: [String],
        shown: String,
        error: String?,
        enableNote: String?,
        editor: ScreeningForm,
        strings: ConsoleStrings
    ) -> FieldView {
        let id = "q-" + field.key
        let value = texts.first ?? ""
        let longText = field.type == .text && (field.maxLength ?? 2_000) > 300
        let inputs: [MeasurementInputView] =
            field.type == .measurement
            ? zip(editor.measurement(field).inputs, editor.inputNames(field)).enumerated().map { index, pair in
                let unit = strings.text("units.\(pair.0.unit)")
                return MeasurementInputView(
                    id: id + pair.0.suffix,
                    name: pair.1,
                    value: index < texts.count ? texts[index] : "",
                    unit: unit,
                    label: "\(field.title) (\(unit))"
                )
            } : []
        return FieldView(
            id: id,
            key: field.key,
            title: field.title,
            help: field.help,
            required: field.required ?? false,
            editable: editable,
            shown: shown,
            error: error,
            enableNote: enableNote,
            isText: field.type == .text && !longText,
            isLongText: longText,
            isNumber: field.type == .number,
            isBoolean: field.type == .boolean,
            isChoice: field.type == .choice,
            isMultiChoice: field.type == .multiChoice,
            isDate: field.type == .date,
            isMeasurement: field.type == .measurement,
            value: value,
            yes: value == "yes",
            no: value == "no",
            options: (field.options ?? []).enumerated().map { index, option in
                OptionView(id: "\(id)-\(index)", value: option.value, title: option.title, selected: texts.contains(option.value))
            },
            inputs: inputs,
            unit: field.unit,
            minimum: field.minimum.map { MeasurementFields.number($0, digits: 6) },
            maximum: field.maximum.map { MeasurementFields.number($0, digits: 6) },
            maxLength: field.type == .text ? field.maxLength ?? 2_000 : nil
        )
    }

    /// An answer as a locked form shows it: yes/no, the option's title, a measurement in the company's units.
    static func answerText(
        _ answer: JSONValue?,
        _ field: Questionnaire.Field,
        format: ReportFormat,
        strings: ConsoleStrings,
        units: Theme.Units
    )
        -> String
    {
        guard let answer, answer != .null else { return "–" }
        switch field.type {
        case .text: return answer.string ?? "–"
        case .number: return answer.number.map { format.number($0, places: 2) + (field.unit.map { " \($0)" } ?? "") } ?? "–"
        case .boolean: return answer.bool.map { strings.text($0 ? "screening.yes" : "screening.no") } ?? "–"
        case .choice: return answer.string.map { value in field.options?.first { $0.value == value }?.title ?? value } ?? "–"
        case .multiChoice:
            return (answer.array ?? []).compactMap(\.string).map { value in field.options?.first { $0.value == value }?.title ?? value }
                .joined(separator: ", ")
        case .date: return answer.string.flatMap { CalendarDate($0) }.map { format.date($0.start) } ?? answer.string ?? "–"
        case .measurement:
            guard let number = answer.number else { return "–" }
            let measurement = MeasurementFields(quantity: field.quantity ?? .length, units: units)
            return zip(measurement.texts(number), measurement.inputs).map { "\($0) \(strings.text("units.\($1.unit)"))" }.joined(separator: " ")
        }
    }
}
