import Foundation
import HTTPTypes
import HealthwheelCore
import Hummingbird
import NIOCore
import Services
import Store

/// `/v1/clients`: the company's clients, their photos, and (in `ClientsController+VCard`) vCard import/export.
/// Every trainer of the company sees every client; deleting one is for an admin or the assigned trainer.
struct ClientsController {
    let store: Store
    let clock: any WallClock
    /// The lists keep each client as its metric JSON, the answer most asked for.
    let directories = ClientDirectoryCache { record, now in try ResponseJSONEncoder().encode(ClientBody(record, now: now, imperial: false)) }

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
        let search = request.uri.queryParameters["q"].map(String.init)
        if let search, search.count > 200 { throw Problem.invalid("q", "must be at most 200 characters") }
        let company = context.trainer.companyId
        let now = clock.now
        let version = try await store.clients.listVersion(of: company)
        let snapshot = { try await store.clients.snapshot(of: company) }
        if let directory = try await directories.directory(for: company, version: version, now: now, snapshot: snapshot) {
            let words = search.map(ClientSearch.queryWords) ?? []
            let (entries, hasMore) = directory.page(matching: words, after: query.cursor, limit: query.limit)
            let next = hasMore ? entries.last?.cursor.token : nil
            if imperial {
                return try .json(ListBody(items: entries.map { ClientBody($0.record, now: now, imperial: true) }, nextCursor: next))
            }
            return try .json(ListBody(items: entries.map { PreencodedJSON(bytes: $0.rendered) }, nextCursor: next))
        }
        let page = try await store.clients.list(in: company, query: search, after: query.cursor, limit: query.limit)
        return try .json(ListBody(items: page.items.map { ClientBody($0, now: now, imperial: imperial) }, nextCursor: page.nextCursor?.token))
    }

    @Sendable func create(request: Request, context: AuthenticatedContext) async throws -> Response {
        let edit = try await request.decodeJSON(ClientEdit.self, context: context)
        let now = clock.now
        var client = Client(companyId: context.trainer.companyId, createdAt: now)
        client.assignedTrainerId = context.trainer.id
        try edit.apply(to: &client, today: CalendarDate(now))
        try await requireTrainerInCompany(client.assignedTrainerId, context)
        try await store.clients.create(client)
        guard let record = try await store.clients.find(client.id, in: client.companyId) else { throw Problem.notFound("client") }
        context.logger.info("client created", metadata: ["client.id": "\(client.id)"])
        return try .json(
            ClientBody(record, now: now, imperial: try wantsImperialUnits(request)),
            status: .created,
            headers: [.location: "/v1/clients/\(client.id.uuidString)"]
        )
    }

    @Sendable func show(request: Request, context: AuthenticatedContext) async throws -> Response {
        let record = try await findClient(request, context)
        if Self.wantsVCard(request) {
            let photo = try await store.clients.photo(of: record.client.id, in: record.client.companyId)
            return Self.vCardResponse(Self.vCard(record.client, photo: photo), filename: "client.vcf")
        }
        return try .json(ClientBody(record, now: clock.now, imperial: try wantsImperialUnits(request)))
    }

    @Sendable func update(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "client")
        let edit = try await request.decodeJSON(ClientEdit.self, context: context)
        if case .set(let trainer) = edit.assignedTrainerId { try await requireTrainerInCompany(trainer, context) }
        let now = clock.now
        let record = try await store.clients.update(id, in: context.trainer.companyId) { client in
            let before = client
            try edit.apply(to: &client, today: CalendarDate(now))
            if client != before { client.updatedAt = now }
        }
        guard let record else { throw Problem.notFound("client") }
        return try .json(ClientBody(record, now: now, imperial: try wantsImperialUnits(request)))
    }

    @Sendable func delete(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let record = try await findClient(request, context)
        let trainer = context.trainer
        guard trainer.role == .admin || record.client.assignedTrainerId == trainer.id else {
            throw Problem.forbidden("only an admin or the client's assigned trainer can delete a client")
        }
        guard try await store.clients.delete(record.client.id, in: trainer.companyId) else { throw Problem.notFound("client") }
        context.logger.info("client deleted", metadata: ["client.id": "\(record.client.id)"])
        return .noContent
    }

    // MARK: - Photo

    @Sendable func photo(request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.id(of: "client")
        guard let photo = try await store.clients.photo(of: id, in: context.trainer.companyId) else {
            throw Problem(.notFound, slug: "not-found", detail: "this client has no photo")
        }
        return Response(
            status: .ok,
            headers: [.contentType: photo.contentType, .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes))
        )
    }

    @Sendable func putPhoto(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "client")
        let contentType = request.headers[.contentType].flatMap(MediaType.init(from:))
        guard let contentType, contentType.type == .image, ["jpeg", "png"].contains(contentType.subType) else {
            throw Problem(
                .unsupportedMediaType,
                slug: "media-type",
                detail: "send the photo as image/jpeg or image/png",
                errors: [FieldError("Content-Type", "must be image/jpeg or image/png")]
            )
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.maxPhotoBytes {
            throw Problem.tooLarge(limit: Self.maxPhotoBytes)
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try await request.body.collect(upTo: Self.maxPhotoBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw Problem.tooLarge(limit: Self.maxPhotoBytes)
        }
        let kind = "image/\(contentType.subType)"
        guard ImageSignature.contentType(of: bytes) == kind else {
            throw Problem.invalid("body", "is not a \(contentType.subType.uppercased()) image")
        }
        let saved = try await store.clients.setPhoto(
            ClientPhoto(contentType: kind, bytes: bytes),
            of: id,
            in: context.trainer.companyId,
            at: clock.now
        )
        guard saved else { throw Problem.notFound("client") }
        return .noContent
    }

    @Sendable func deletePhoto(request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let id = try context.id(of: "client")
        guard try await store.clients.setPhoto(nil, of: id, in: context.trainer.companyId, at: clock.now) else {
            throw Problem.notFound("client")
        }
        return .noContent
    }

    // MARK: - Helpers

    func findClient(_ request: Request, _ context: AuthenticatedContext) async throws -> ClientRecord {
        guard let record = try await store.clients.find(try context.id(of: "client"), in: context.trainer.companyId) else {
            throw Problem.notFound("client")
        }
        return record
    }

    /// An assigned trainer must be a trainer of the caller's company.
    private func requireTrainerInCompany(_ id: UUID?, _ context: AuthenticatedContext) async throws {
        guard let id else { return }
        if try await store.trainers.find(id, in: context.trainer.companyId) == nil {
            throw Problem.invalid("assignedTrainerId", "is not a trainer of your company")
        }
    }
}
