import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Services

/// vCard import (`POST /v1/clients/import`, `text/vcard`) and export (`GET /v1/clients/export.vcf`, and
/// `GET /v1/clients/{id}` with `Accept: text/vcard`).
///
/// Import is the `ClientImport` use case (matching, NOTE, batched saves); this parses, limits and reports.
extension ClientsController {
    static let maxImportBytes = ClientRoster.maximumVCardBytes

    func addVCardRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("clients/import", use: importVCards)
        group.get("clients/export.vcf", use: exportAll)
    }

    struct ImportItem: Encodable {
        var index: Int
        var status: String
        var clientId: UUID?
        var name: String?
        var reason: String?
        var notes: [String]

        init(_ item: ClientImport.Item) {
            (index, status, clientId, name, reason, notes) = (item.index, item.status.rawValue, item.clientId, item.name, item.reason, item.notes)
        }
    }

    struct ImportResult: Encodable {
        var created: Int
        var updated: Int
        var skipped: Int
        var items: [ImportItem]
    }

    @Sendable func importVCards(request: Request, context: AuthenticatedContext) async throws -> Response {
        let mediaType = request.headers[.contentType].flatMap(MediaType.init(from:))
        guard let mediaType, mediaType.type == .text, ["vcard", "x-vcard", "directory"].contains(mediaType.subType) else {
            throw Problem(
                .unsupportedMediaType,
                slug: "media-type",
                detail: "send the cards as text/vcard",
                errors: [FieldError("Content-Type", "must be text/vcard")]
            )
        }
        let buffer = try await request.collectBody(upTo: Self.maxImportBytes)
        let report = try await clients.importVCardFile(buffer.readableBytesView, by: context.trainer)
        let items = report.items.map(ImportItem.init)
        let (created, updated, skipped) = (report.count(.created), report.count(.updated), report.count(.skipped))
        context.logger.info("vCard import", metadata: ["created": "\(created)", "updated": "\(updated)", "skipped": "\(skipped)"])
        return try .json(ImportResult(created: created, updated: updated, skipped: skipped, items: items))
    }

    // MARK: - Export

    @Sendable func exportAll(request: Request, context: AuthenticatedContext) async throws -> Response {
        Self.vCardResponse(try await clients.vCardFile(of: context.trainer.companyId), filename: "clients.vcf")
    }

    static func vCardResponse(_ text: String, filename: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/vcard; charset=utf-8", .contentDisposition: "attachment; filename=\"\(filename)\""],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// True when the caller asked for a vCard rather than JSON.
    static func wantsVCard(_ request: Request) -> Bool {
        request.headers[.accept].map { $0.contains("text/vcard") || $0.contains("text/x-vcard") } ?? false
    }
}
