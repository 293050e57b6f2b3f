import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore
import Reports
import Services

/// `GET /v1/clients/{id}/report`: the client's progress report over a period (`?from=&to=`, default the past
/// year), in a language (`?lang=`, else `Accept-Language`, else the theme's) and units (`?units=`, else the
/// theme's), as one HTML page whose pictures are inside it.
struct ReportController {
    let reports: ClientReports

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/report", use: report)
    }

    @Sendable func report(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try context.id(of: "client")
        guard Self.acceptsHTML(request.headers[.accept]) else {
            throw Problem(
                .notAcceptable,
                slug: "not-acceptable",
                detail: "the report is served as text/html; PDF is not available yet",
                errors: [FieldError("Accept", "must allow text/html")]
            )
        }
        let period = try ResultsController.period(request.uri)
        var options = ClientReports.Options(from: period.from, to: period.to)
        options.language = request.uri.queryParameters["lang"].map(String.init) ?? Self.language(request.headers[.acceptLanguage])
        switch request.uri.queryParameters["units"].map(String.init) {
        case nil: break
        case let units?:
            guard let value = Theme.Units(rawValue: units) else { throw Problem.invalid("units", "must be metric or imperial") }
            options.units = value
        }
        let html = try await reports.html(client: client, in: context.trainer.companyId, options: options)
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

    /// True unless `Accept` names types that leave HTML out.
    static func acceptsHTML(_ accept: String?) -> Bool {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return true }
        return accept.split(separator: ",").contains { item in
            let type = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            return ["text/html", "text/*", "*/*"].contains(type)
        }
    }

    /// The first language of `Accept-Language` that reports are written in.
    static func language(_ header: String?) -> String? {
        header?.split(separator: ",").lazy
            .compactMap { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() }
            .map { String($0.prefix { $0 != "-" }) }
            .first { ReportStrings.languages.contains($0) }
    }
}
