import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Store

/// vCard import (`POST /v1/clients/import`, `text/vcard`) and export (`GET /v1/clients/export.vcf`, and
/// `GET /v1/clients/{id}` with `Accept: text/vcard`).
///
/// Import matches each card to a client by UID, then email, then exact full name (as the original app matched
/// Contacts), and creates or updates it — only the details the card has; goal, notes, height and mass are never
/// touched. Each card is saved in its own transaction, so one bad card is reported and skipped while the rest land.
extension ClientsController {
    static let maxImportBytes = 16 << 20
    static let maxImportCards = 5_000

    func addVCardRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("clients/import", use: importVCards)
        group.get("clients/export.vcf", use: exportAll)
    }

    struct ImportItem: Encodable {
        enum Status: String, Encodable {
            case created, updated, skipped
        }

        var index: Int
        var status: Status
        var clientId: UUID?
        var name: String?
        var reason: String?
        var notes: [String]
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
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxImportBytes)
        } catch is NIOTooManyBytesError {
            throw Problem.tooLarge(limit: Self.maxImportBytes)
        }
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) ?? String(bytes: buffer.readableBytesView, encoding: .isoLatin1)
        else { throw Problem.malformed("the body is not text") }
        let cards = VCardParser.parse(text)
        if cards.isEmpty { throw Problem.invalid("body", "holds no BEGIN:VCARD … END:VCARD card") }
        if cards.count > Self.maxImportCards { throw Problem.invalid("body", "holds more than \(Self.maxImportCards) cards") }

        var items: [ImportItem] = []
        for (offset, card) in cards.enumerated() {
            let index = offset + 1
            switch card {
            case .failure(let failure):
                items.append(ImportItem(index: index, status: .skipped, reason: failure.reason, notes: []))
            case .success(let contact):
                items.append(try await importContact(contact, index: index, context: context))
            }
        }
        let count = { (status: ImportItem.Status) in items.filter { $0.status == status }.count }
        context.logger.info(
            "vCard import",
            metadata: ["created": "\(count(.created))", "updated": "\(count(.updated))", "skipped": "\(count(.skipped))"]
        )
        return try .json(ImportResult(created: count(.created), updated: count(.updated), skipped: count(.skipped), items: items))
    }

    private func importContact(_ contact: VCardContact, index: Int, context: AuthenticatedContext) async throws -> ImportItem {
        let company = context.trainer.companyId
        let existing = try await store.clients.match(
            uid: contact.uid,
            email: contact.email?.lowercased(),
            fullName: contact.fullName,
            in: company
        )
        let now = clock.now
        var client = existing ?? Client(companyId: company, createdAt: now)
        if existing == nil { client.assignedTrainerId = context.trainer.id }
        do {
            try Self.edit(from: contact).apply(to: &client, today: CalendarDate(now))
        } catch {
            let reason = error.errors.map(\.description).joined(separator: "; ")
            return ImportItem(index: index, status: .skipped, name: contact.fullName, reason: reason, notes: contact.notes)
        }
        if client.vcardUID == nil, let uid = contact.uid, !uid.lowercased().hasPrefix("urn:uuid:\(client.id.uuidString.lowercased())") {
            client.vcardUID = uid
        }
        var notes = contact.notes
        var photo = contact.photo.map { ClientPhoto(contentType: $0.contentType, bytes: $0.bytes) }
        if let bytes = photo?.bytes, bytes.count > Self.maxPhotoBytes {
            notes.append("photo not imported: larger than \(Self.maxPhotoBytes) bytes")
            photo = nil
        }
        if let existing, let new = photo, try await store.clients.photo(of: existing.id, in: company) == new {
            photo = nil  // the same picture again
        }
        if existing != nil, client == existing, photo == nil {
            return ImportItem(index: index, status: .updated, clientId: client.id, name: client.fullName, notes: notes + ["no changes"])
        }
        client.updatedAt = now
        try await store.clients.save(client, isNew: existing == nil, photo: photo, at: now)
        return ImportItem(index: index, status: existing == nil ? .created : .updated, clientId: client.id, name: client.fullName, notes: notes)
    }

    /// The details a card carries, as a client edit that leaves everything the card does not mention.
    static func edit(from contact: VCardContact) -> ClientEdit {
        var edit = ClientEdit()
        if let value = contact.givenName { edit.givenName = .set(value) }
        if let value = contact.familyName { edit.familyName = .set(value) }
        if let value = contact.email { edit.email = .set(value) }
        if let value = contact.phone { edit.phone = .set(value) }
        if let value = contact.birthDate { edit.birthDate = .set(value.description) }
        if let value = contact.sex { edit.sex = .set(value.rawValue) }
        return edit
    }

    // MARK: - Export

    @Sendable func exportAll(request: Request, context: AuthenticatedContext) async throws -> Response {
        let company = context.trainer.companyId
        var text = ""
        for client in try await store.clients.all(in: company) {
            let photo = try await store.clients.photo(of: client.id, in: company)
            text += Self.vCard(client, photo: photo)
        }
        return Self.vCardResponse(text, filename: "clients.vcf")
    }

    static func vCard(_ client: Client, photo: ClientPhoto?) -> String {
        VCardWriter.card(
            for: client,
            uid: client.vcardUID ?? "urn:uuid:\(client.id.uuidString.lowercased())",
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
