import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore
import Prometheus
import Services
import StoreContract

/// `/v1/clients`: the company's clients, their photos, and (in `ClientsController+VCard`) vCard import/export.
/// Every trainer of the company sees every client; deleting one is for an admin or the assigned trainer.
struct ClientsController {
    let clients: ClientRoster
    let erasure: ClientErasure
    let clock: any WallClock

    static let maxPhotoBytes = Client.maxPhotoBytes

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        addVCardRoutes(to: group)
        group.get("clients", use: list)
        group.post("clients", use: create)
        group.get("clients/:id", use: show)
        group.patch("clients/:id", use: update)
        group.delete("clients/:id", use: delete)
        group.get("clients/:id/photo", use: photo)
        group.put("clients/:id/photo", use: putPhoto)
        group.delete("clients/:id/photo", use: deletePhoto)
    }

    @Sendable func list(request: Request, context: AuthenticatedContext) async throws -> Response {
        let query = try ListQuery(request.uri)
        let imperial = try wantsImperialUnits(request)
        let search = request.uri.parameter("q")
        if let search, search.count > 200 { throw Problem.invalid("q", "must be at most 200 characters") }
        let now = clock.now
        // Imperial units are rendered per request from records: the directory keeps the metric JSON only.
        let listing = try await clients.list(
            in: context.trainer.companyId,
            search: search,
            after: query.cursor,
            limit: query.limit,
            now: now,
            rendered: !imperial,
            freshness: context.principal.freshness
        )
        switch listing {
        case .rendered(let items, let nextCursor):
            return try .json(ListBody(items: items.map(PreencodedJSON.init(bytes:)), nextCursor: nextCursor?.token))
        case .stored(let page):
            let items = page.items.map { ClientBody($0, now: now, imperial: imperial) }
            return try .json(ListBody(items: items, nextCursor: page.nextCursor?.token))
        }
    }

    /// A client's fields, and the id an app chose when it made them offline (`AppChosenIds`).
    struct NewClientRequest: StrictJSONBody {
        var edit: ClientEdit
        var id: UUID?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case givenName, familyName, email, phone, birthDate, sex, height, mass, goal, notes, assignedTrainerId, id
        }

        init(from decoder: any Decoder) throws {
            edit = try ClientEdit(from: decoder)
            id = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(UUID.self, forKey: .id)
        }
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await request.decodeJSON(NewClientRequest.self, context: context)
        let imperial = try wantsImperialUnits(request)
        let outcome: AppChosenIds.Outcome<ClientRecord>
        do {
            outcome = try await clients.create(body.edit, id: body.id, by: context.trainer)
        } catch let refusal as ServiceError where body.id != nil {
            throw await refusal.withCurrent {
                ClientBody(try await clients.record(body.id!, in: context.trainer.companyId), now: clock.now, imperial: imperial)
            }
        }
        let record = outcome.record
        let reply = try JSONReply(
            ClientBody(record, now: clock.now, imperial: imperial),
            status: .created,
            headers: [.location: "/v1/clients/\(record.client.id.uppercaseHyphenated)"]
        )
        if case .replayed = outcome { return reply.replayed.response }
        context.logger.info("client created", metadata: ["client.id": "\(record.client.id)"])
        return reply.response
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "client")
        let company = context.trainer.companyId
        let freshness = context.principal.freshness
        if Self.wantsVCard(request) {
            let record = try await clients.record(id, in: company, freshness: freshness)
            let photo = try await clients.photo(of: id, in: company)
            return Self.vCardResponse(ClientRoster.vCard(record.client, photo: photo), filename: "client.vcf")
        }
        if try wantsImperialUnits(request) {
            let record = try await clients.record(id, in: company, freshness: freshness)
            return try .json(ClientBody(record, now: clock.now, imperial: true))
        }
        // The answer most asked for, kept rendered as the roster keeps its clients.
        return JSONReply(status: .ok, body: try await clients.renderedRecord(id, in: company, freshness: freshness)).response
    }

    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "client")
        let edit = try await request.decodeJSON(ClientEdit.self, context: context)
        let record = try await clients.update(id, with: edit, by: context.trainer)
        return try .json(ClientBody(record, now: clock.now, imperial: try wantsImperialUnits(request)))
    }

    /// Deletes the client; with `?erase=true` (admins) erases them, leaving nothing but one audit line.
    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "client")
        if try request.uri.flag("erase") {
            try await erasure.erase(id, by: context.trainer)
            context.logger.info("client erased", metadata: ["client.id": "\(id)"])
        } else {
            try await clients.delete(id, by: context.trainer)
            context.logger.info("client deleted", metadata: ["client.id": "\(id)"])
        }
        return .noContent
    }

    // MARK: - Photo

    /// The photo as uploaded, or with `?size=` a JPEG avatar fitting `size` × `size`. A client without a photo is
    /// a 404 `no-photo` (an unknown client a 404 `not-found`): the photo is the resource, and it is not there.
    @Sendable func photo(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "client")
        let company = context.trainer.companyId
        let size = try request.uri.pixelSize()
        let found =
            if let size { try await clients.photo(of: id, in: company, fitting: size) } else { try await clients.photo(of: id, in: company) }
        guard let photo = found else {
            _ = try await clients.record(id, in: company)
            throw ClientRoster.noPhoto
        }
        return Response(
            status: .ok,
            headers: [.contentType: photo.contentType, .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes))
        )
    }

    @Sendable func putPhoto(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "client")
        let contentType = try request.requireMediaType(["image/jpeg", "image/png"], for: "photo")
        let bytes = Array(try await request.collectBody(upTo: Self.maxPhotoBytes).readableBytesView)
        try await clients.setPhoto(bytes, contentType: contentType, of: id, by: context.trainer)
        return .noContent
    }

    @Sendable func deletePhoto(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "client")
        try await clients.removePhoto(of: id, by: context.trainer)
        return .noContent
    }
}
