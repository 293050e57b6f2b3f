import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore
import Reports
import Services

/// `GET /v1/clients/{id}/report`: the client's progress report over a period (`?from=&to=`, default the past
/// year), in a language (`?lang=`, else `Accept-Language`, else the theme's) and units (`?units=`, else the
/// theme's), as one HTML page whose pictures are inside it (`Accept: text/html`, the default) or an A4 PDF
/// (`Accept: application/pdf`).
struct ReportController {
    let reports: ClientReports

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/report", use: report)
    }

    @Sendable func report(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try context.id(of: "client")
        guard let format = Self.format(accepting: request.headers[.accept]) else {
            throw Problem(
                .notAcceptable,
                slug: "not-acceptable",
                detail: "a report is served as text/html or application/pdf",
                errors: [FieldError("Accept", "must allow text/html or application/pdf")]
            )
        }
        let period = try PeriodQuery(request.uri)
        var options = ClientReports.Options(from: period.from, to: period.to)
        options.language = request.readerLanguage
        switch request.uri.parameter("units", blankIsAbsent: false) {
        case nil: break
        case let units?:
            guard let value = Theme.Units(rawValue: units) else { throw Problem.invalid("units", "must be metric or imperial") }
            options.units = value
        }
        switch try await reports.read(client: client, by: context.trainer, options: options, asPDF: format == .pdf) {
        case .pdf(let pdf):
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/pdf",
                    .contentDisposition: "inline; filename=\"report.pdf\"",
                    .cacheControl: "private, no-store",
                    .xContentTypeOptions: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: pdf))
            )
        case .html(let html):
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8",
                    .cacheControl: "private, no-store",
                    // Everything the page shows is inside it: nothing may be fetched or run.
                    .contentSecurityPolicy: "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
                    .xContentTypeOptions: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(string: html))
            )
        }
    }

    enum Format {
        case html, pdf
    }

    /// The format `Accept` prefers (by q-value, then order); HTML when it names none. Nil when it allows neither.
    static func format(accepting accept: String?) -> Format? {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return .html }
        var best: (format: Format, quality: Double)?
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            let format: Format? =
                switch parts.first ?? "" {
                case "application/pdf": .pdf
                case "text/html", "text/*", "*/*": .html
                default: nil
                }
            guard let format, quality > 0 else { continue }
            if best == nil || quality > best!.quality { best = (format, quality) }
        }
        return best?.format
    }
}
