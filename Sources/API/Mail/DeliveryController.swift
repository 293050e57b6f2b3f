import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import Services
import StoreContract

/// Emailing reports: `POST /v1/clients/{id}/report/email` accepts one into the outbox (202), and
/// `GET /v1/deliveries/{id}` and `GET /v1/clients/{id}/deliveries` follow it until it is sent or has failed.
struct DeliveryController {
    let emails: ReportEmails
    let idempotency: IdempotentRequests

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("clients/:id/report/email", use: email)
        group.get("clients/:id/deliveries", use: list)
        group.get("deliveries/:id", use: show)
    }

    /// An `Idempotency-Key` makes a retried POST answer as the first did and send nothing more.
    @Sendable func email(request: Request, context: AuthenticatedContext) async throws -> Response {
        let data = try await request.collectJSON(context: context)
        let client = try context.id(of: "client")
        return try await idempotency.run(request, body: data, context: context) { ticket in
            let body = try EmailReportRequest.decodeStrictly(from: data)
            let period = try body.periodQuery()
            var options = ClientReports.Options(from: period.from, to: period.to, language: body.lang)
            if let units = body.units {
                guard let value = Theme.Units(rawValue: units) else { throw Problem.invalid("units", "must be metric or imperial") }
                options.units = value
            }
            func reply(_ delivery: Delivery) throws -> JSONReply {
                let location = "/v1/deliveries/\(delivery.id.uppercaseHyphenated)"
                return try JSONReply(DeliveryBody(delivery: delivery), status: .accepted, headers: [.location: location])
            }
            var kept: JSONReply?
            let delivery = try await emails.send(
                ReportEmails.Request(to: body.to, cc: body.cc, message: body.message, options: options),
                client: client,
                by: context.trainer
            ) { delivery in
                let answer = try reply(delivery)
                kept = answer
                return ticket?.record(answer)
            }
            context.logger.info("report email queued", metadata: ["delivery.id": "\(delivery.id)", "client.id": "\(client)"])
            return try kept ?? reply(delivery)
        }
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let delivery = try await emails.delivery(try context.id(of: "delivery"), in: context.trainer.companyId)
        return try .json(DeliveryBody(delivery: delivery))
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = try ListQuery(request.uri)
        let page = try await emails.list(client: try context.id(of: "client"), in: context.trainer.companyId, after: query.cursor, limit: query.limit)
        return try .json(ListBody(items: page.items.map { DeliveryBody(delivery: $0) }, nextCursor: page.nextCursor?.token))
    }
}
