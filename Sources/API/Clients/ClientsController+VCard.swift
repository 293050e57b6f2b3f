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
    static let maxImportBytes = 16 << 20
    static let maxImportCards = 5_000

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
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) ?? String(bytes: buffer.readableBytesView, encoding: .isoLatin1)
        else { throw Problem.malformed("the body is not text") }
        let cards = VCardParser.parse(text)
        if cards.count > Self.maxImportCards { throw Problem.invalid("body", "holds more than \(Self.maxImportCards) cards") }

        let report = try await clients.importCards(cards, into: context.trainer.companyId, assigningTo: context.trainer.id)
        let items = report.items.map(ImportItem.init)
        let (created, updated, skipped) = (report.count(.created), report.count(.updated), report.count(.skipped))
        context.logger.info("vCard import", metadata: ["created": "\(created)", "updated": "\(updated)", "skipped": "\(skipped)"])
        return try .json(ImportResult(created: created, updated: updated, skipped: skipped, items: items))
    }

    // MARK: - Export

    @Sendable func exportAll(request: Request, context: AuthenticatedContext) async throws -> Response {
        let text = try await clients.export(context.trainer.companyId).map { Self.vCard($0.client, photo: $0.photo) }.joined()
        return Self.vCardResponse(text, filename: "clients.vcf")
    }

    static func vCard(_ client: Client, photo: ClientPhoto?) -> String {
        VCardWriter.card(
            for: client,
            uid: client.vcardUID ?? "urn:uuid:\(client.id.lowercaseHyphenated)",
            photo: photo.map { ($0.contentType, $0.bytes) }
        )
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
