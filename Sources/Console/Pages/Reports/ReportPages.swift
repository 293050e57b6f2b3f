import API
import Foundation
import HealthwheelCore
import Hummingbird
import Reports
import Services

/// `/clients/{id}/report`: the progress report of a period previewed as the client will see it (the report's own
/// HTML in a sandboxed frame), downloaded as a PDF, emailed with a message; the report's deliveries and their
/// status. And `/clients/{id}/data` (admins and the client's trainer): the client's export, and erasure after
/// typing their name.
struct ReportPages: Sendable {
    let useCases: UseCases
    let frames: Frames

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("clients/:id/report", use: page)
        group.get("clients/:id/report.html", use: html)
        group.get("clients/:id/report.pdf", use: pdf)
        group.post("clients/:id/report/email", use: email)
        group.get("clients/:id/data", use: dataRights)
        group.get("clients/:id/export.zip", use: export)
        group.post("clients/:id/erase", use: erase)
    }

    struct ReportPage {
        var link: String
        var clientName: String
        var from: String
        var to: String
        var query: String
        var recipients: String
        var cc: String
        var message: String
        var deliveries: [DeliveryLine]
        var pending: Bool
        var errorList: [ConsolePageErrors.FieldLine]
        var errors: [String: String]
    }

    struct DeliveryLine {
        var to: String
        var created: String
        var status: String
        var statusLabel: String
        var detail: String?
    }

    /// The period asked for (`from`, `to` as days), or the last 12 months: the report's own default.
    private func period(_ request: Request) -> (from: CalendarDate?, to: CalendarDate?, options: ClientReports.Options) {
        let from = request.uri.queryParameters["from"].flatMap { CalendarDate(String($0)) }
        let to = request.uri.queryParameters["to"].flatMap { CalendarDate(String($0)) }
        return (from, to, ClientReports.Options(from: from.map(\.start), to: to.map(\.end)))
    }

    @Sendable func page(request: Request, context: SignedInContext) async throws -> Response {
        try await render(request, context, posted: nil, errors: [], status: .ok)
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
        let framed = try await frames.frame(request, context, title: "report.title", section: "clients")
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let format = framed.format
        let record = try await useCases.clients.roster.record(clientId, in: context.company, freshness: context.principal.freshness)
        let (from, to, _) = period(request)
        let now = useCases.clock.now
        let deliveries = try await useCases.mail.emails.list(client: clientId, in: context.company, after: nil, limit: 10).items
        let byField = errors.byField
        let query = RosterPages.query(["from": from?.description ?? "", "to": to?.description ?? ""])
        let content = ReportPage(
            link: "/clients/\(clientId.lowercaseHyphenated)",
            clientName: record.client.fullName,
            from: (from ?? CalendarDate(now.addingTimeInterval(-365 * 86_400))).description,
            to: (to ?? CalendarDate(now)).description,
            query: query.isEmpty ? "" : "?" + query,
            recipients: posted?["to"] ?? record.client.email ?? "",
            cc: posted?["cc"] ?? "",
            message: posted?["message"] ?? "",
            deliveries: deliveries.map { delivery in
                DeliveryLine(
                    to: delivery.to.joined(separator: ", "),
                    created: format.date(delivery.createdAt),
                    status: delivery.status.rawValue,
                    statusLabel: strings.text("report.status.\(delivery.status.rawValue)"),
                    detail: delivery.lastError
                )
            },
            pending: deliveries.contains { $0.status == .queued || $0.status == .sending },
            errorList: errors.map { error in
                // `to[1]` and `period.from` under the form's own labels (To, From).
                let field = error.field.prefix { $0 != "[" }.split(separator: ".").last.map(String.init) ?? error.field
                return .init(field: strings.label("report.\(field)") ?? error.field, message: error.message)
            },
            errors: byField
        )
        var framedPage = framed
        framedPage.frame.title = strings.text("report.pageTitle", ["name": record.client.fullName])
        if request.uri.queryParameters["part"] == "deliveries" { return try frames.page("report-deliveries", content, framedPage) }
        return try frames.page("report", content, framedPage, status: status)
    }

    /// The report as its own HTML page, for the preview's frame: its inline style and pictures are allowed there
    /// and nothing else (no script, no requests out), and only this server's pages may frame it.
    @Sendable func html(request: Request, context: SignedInContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        var options = period(request).options
        options.language = try await language(request, context)
        guard case .html(let html) = try await useCases.reports.read(client: clientId, by: context.trainer, options: options, asPDF: false) else {
            throw ServiceError.notFound("report")
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    @Sendable func pdf(request: Request, context: SignedInContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        var options = period(request).options
        options.language = try await language(request, context)
        guard case .pdf(let pdf) = try await useCases.reports.read(client: clientId, by: context.trainer, options: options, asPDF: true) else {
            throw ServiceError.notFound("report")
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/pdf",
                .contentDisposition: "attachment; filename=\"report-\(clientId.lowercaseHyphenated)-\(CalendarDate(useCases.clock.now)).pdf\"",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: pdf))
        )
    }

    /// The report's language: the reader's (`Accept-Language`) when reports are written in it, else the theme's.
    private func language(_ request: Request, _ context: SignedInContext) async throws -> String {
        let theme = try await useCases.themes.companies.current(for: context.company, freshness: context.principal.freshness)
        return ConsoleStrings.language(accepting: request.headers[.acceptLanguage], fallback: theme.theme.locale)
    }

    @Sendable func email(request: Request, context: SignedInContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        let form = context.form
        let split = { (text: String?) in
            (text ?? "").split(whereSeparator: { $0 == "," || $0 == ";" || $0.isWhitespace }).map(String.init)
        }
        var options = ClientReports.Options(
            from: form.text("periodFrom").flatMap { CalendarDate($0) }.map(\.start),
            to: form.text("periodTo").flatMap { CalendarDate($0) }.map(\.end)
        )
        options.language = try await language(request, context)
        let recipients = split(form["to"])
        do {
            _ = try await useCases.mail.emails.send(
                ReportEmails.Request(
                    to: recipients.isEmpty ? nil : recipients,
                    cc: split(form["cc"]),
                    message: form.text("message"),
                    options: options
                ),
                client: clientId,
                by: context.trainer
            )
        } catch  where !error.formErrors.isEmpty {
            return try await render(request, context, posted: form, errors: error.formErrors, status: .unprocessableContent)
        }
        let query = RosterPages.query(["from": form.text("periodFrom") ?? "", "to": form.text("periodTo") ?? ""])
        return Notice.redirect("/clients/\(clientId.lowercaseHyphenated)/report" + (query.isEmpty ? "" : "?" + query), "reportSent").response
    }

    // MARK: Data rights

    struct DataPage {
        var link: String
        var clientName: String
        var canErase: Bool
        var error: String?
    }

    @Sendable func dataRights(request: Request, context: SignedInContext) async throws -> Response {
        try await dataPage(request, context, error: nil, status: .ok)
    }

    private func dataPage(_ request: Request, _ context: SignedInContext, error: String?, status: HTTPResponse.Status) async throws -> Response {
        let clientId = try context.id(of: "client")
        let framed = try await frames.frame(request, context, title: "data.title", section: "clients")
        let record = try await useCases.clients.roster.record(clientId, in: context.company, freshness: context.principal.freshness)
        let content = DataPage(
            link: "/clients/\(clientId.lowercaseHyphenated)",
            clientName: record.client.fullName,
            canErase: context.trainer.role == Role.admin,
            error: error
        )
        return try frames.page("data-rights", content, framed, status: status)
    }

    @Sendable func export(request: Request, context: SignedInContext) async throws -> Response {
        try await ExportController(export: useCases.clients.export).archive(of: try context.id(of: "client"), by: context.trainer)
    }

    /// Erasure, after the admin typed the client's name exactly as it is shown: a slip of the finger cannot erase
    /// anyone.
    @Sendable func erase(request: Request, context: SignedInContext) async throws -> Response {
        let clientId = try context.id(of: "client")
        let record = try await useCases.clients.roster.record(clientId, in: context.company)
        let typed = context.form.text("confirmName") ?? ""
        guard typed == record.client.fullName.trimmingCharacters(in: .whitespaces) else {
            let framed = try await frames.frame(request, context, title: "data.title", section: "clients")
            return try await dataPage(request, context, error: framed.strings.text("data.nameMismatch"), status: .unprocessableContent)
        }
        try await useCases.clients.erasure.erase(clientId, by: context.trainer)
        frames.pages.forgetPages()
        return Notice.redirect("/clients", "clientErased").response
    }
}
